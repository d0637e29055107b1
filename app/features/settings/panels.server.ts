import { getDatabase } from "#db/client.server";
import type { LinkedIdentity } from "~/features/account/queries.server";
import { autoUnlockFrom } from "~/features/coins/auto-unlock.server";
import { fromIso, type JsonRow } from "~/lib/json-row";
import { type getAccountChoices, SESSIONS_SHOWN, type SessionRow, sessionList } from "./queries.server";

/**
 * The reader's own rows /settings shows, in one statement planned once per connection (as /account's lists,
 * features/dashboard/account.server.ts): what getAccountChoices, listSessions, getLinkedIdentities,
 * hasFeedToken, listFactors (their count) and autoUnlockSetting read, each from its own rows in the same order
 * and limits (tests/integration/settings-panels.test.ts compares the two). Six queries were six parses, plans
 * and round trips on PGlite's one connection on every first visit to the page.
 */
const panelsStatement = `select
  (select row_to_json(x) from (select time_zone as "timeZone", time_zone_fixed as "timeZoneFixed",
    email_new_chapters as "newChapters", email_account_notices as "accountNotices", email_qa as "qaPublished",
    email_news as "news" from users where id = $1) x),
  (select coalesce(json_agg(x order by x."lastSeenAt" desc, x.id desc), '[]') from (select id, remember,
    created_at as "createdAt", last_seen_at as "lastSeenAt", user_agent as "userAgent" from sessions
    where user_id = $1 and expires_at > $2::timestamptz order by last_seen_at desc, id desc
    limit ${SESSIONS_SHOWN}) x),
  (select coalesce(json_agg(x order by x.provider, x.id), '[]') from (select id, provider,
    display_name as "displayName", username from oauth_identities where user_id = $1) x),
  exists (select 1 from feed_tokens where user_id = $1),
  (select count(*)::int from second_factors where user_id = $1 and confirmed_at is not null),
  (select row_to_json(x) from (select enabled, daily_cap as "dailyCap", confirmed_at as "confirmedAt"
    from auto_unlock_settings where user_id = $1) x)`;

type PanelsRow = [
  Awaited<ReturnType<typeof getAccountChoices>> | null,
  JsonRow<SessionRow>[],
  (LinkedIdentity & { id: number })[],
  boolean,
  number,
  { enabled: boolean; dailyCap: number; confirmedAt: string | null } | null,
];

/** The choices, sessions, linked identities, feed, second factors and auto-unlock of /settings. */
export async function loadSettingsPanels(user: { id: number; sessionId: number }, now = new Date()) {
  const [row] = await getDatabase().preparedRows("settings_panels", panelsStatement, [
    String(user.id),
    now.toISOString(),
  ]);
  const [choices, sessions, linked, feed, secondFactors, autoUnlock] = row as PanelsRow;
  if (!choices) throw new Error(`no user ${user.id}`);
  const rows = sessions.map((one) => ({
    ...one,
    createdAt: fromIso(one.createdAt),
    lastSeenAt: fromIso(one.lastSeenAt),
  }));
  return {
    choices,
    sessions: sessionList(rows, user.sessionId, now),
    linked: linked.map(({ provider, displayName, username }) => ({ provider, displayName, username })),
    feed,
    secondFactors,
    autoUnlock: autoUnlockFrom(autoUnlock ?? undefined),
  };
}
