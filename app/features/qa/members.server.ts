import { getDatabase } from "#db/client.server";
import {
  type MembershipColumns,
  membershipFromColumns,
  membershipSql,
} from "~/features/membership/queries.server";
import { mayAsk } from "./rules";

/**
 * The readers a published month is e-mailed to: those whose tier holds the monthly Q&A now, who kept the
 * "Q&A published" choice on and are not suspended. Membership is computed, not stored (ADR 10): one statement
 * reads each candidate's records, and the rule is applied here.
 */
const candidatesStatement = `select u.id, ${membershipSql("u.id")} from users u
  where u.email_qa and u.suspended_at is null
    and (exists (select 1 from payments p where p.user_id = u.id and p.status in ('paid', 'refunded'))
      or exists (select 1 from membership_grants g where g.user_id = u.id and g.revoked_at is null)
      or exists (select 1 from subscriptions s where s.user_id = u.id))
  order by u.id`;

export async function membersToTell(now: Date): Promise<number[]> {
  const rows = await getDatabase().preparedRows("qa_members_to_tell", candidatesStatement, []);
  return rows
    .map(([id, ...membership]) => ({ id: Number(id), membership: membership as MembershipColumns }))
    .filter(({ membership }) => mayAsk(membershipFromColumns(membership, now).tier))
    .map(({ id }) => id);
}
