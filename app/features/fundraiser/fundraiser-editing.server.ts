import { asc, desc, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import { fundraiserGoals, supportTiers, tierKeys } from "#db/schema";
import { digestOf } from "~/features/audit/digest.server";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { violatedUniqueConstraint } from "~/lib/db-errors";
import type { GoalInput, TierForm } from "./fundraiser-form";

type TierRow = typeof supportTiers.$inferSelect;
type GoalRow = typeof fundraiserGoals.$inferSelect;
type AdminActor = Actor & { via: "admin" };

/** A digest of a row as it is: the form carries it, and a save names the row it was made from. */
const digest = (row: TierRow | GoalRow) => digestOf(row);

/** The three tiers in the order the fundraiser shows them, each with its digest, for their forms. */
export async function listTiersForEdit() {
  const rows = await db()
    .select()
    .from(supportTiers)
    .orderBy(asc(supportTiers.sortOrder), asc(supportTiers.key));
  return rows.map((row) => ({ row, base: digest(row) }));
}

export type TierSaveOutcome = { ok: true } | { ok: false; reason: "notFound" | "conflict" | "priceOrder" };

/**
 * Saves a tier made from the version with digest `base`. The three tiers are locked together (always in
 * key order), so two saves take turns: one made from a tier changed since is a conflict, never an overwrite.
 * Their prices must rise with the tier (observer < analyst < first_human), since an upgrade is charged the
 * difference. A price applies to checkouts and tier changes from now on; a running subscription keeps the
 * price it was started or changed at (the provider bills that one: ADR 27).
 */
export function saveTier(input: TierForm, actor: AdminActor): Promise<TierSaveOutcome> {
  const { base, key, amount, order, ...fields } = input;
  return db().transaction(async (tx) => {
    const rows = await tx.select().from(supportTiers).orderBy(asc(supportTiers.key)).for("update");
    const current = rows.find((row) => row.key === key);
    if (!current) return { ok: false, reason: "notFound" } as const;
    if (digest(current) !== base) return { ok: false, reason: "conflict" } as const;
    const prices = tierKeys.flatMap((tier) =>
      tier === key ? [amount] : rows.filter((row) => row.key === tier).map((row) => row.amountCents),
    );
    if (prices.some((price, index) => index > 0 && price <= (prices[index - 1] ?? 0)))
      return { ok: false, reason: "priceOrder" } as const;
    const next: TierRow = { ...current, ...fields, amountCents: amount, sortOrder: order };
    const changed = (Object.keys(next) as (keyof TierRow)[]).filter(
      (field) => JSON.stringify(next[field]) !== JSON.stringify(current[field]),
    );
    if (changed.length === 0) return { ok: true } as const;
    await tx
      .update(supportTiers)
      .set({ ...fields, amountCents: amount, sortOrder: order })
      .where(eq(supportTiers.key, key));
    const logged = (row: TierRow) => Object.fromEntries(changed.map((field) => [field, row[field]]));
    await recordAudit(tx, actor, {
      action: "tier.update",
      subjectType: "tier",
      subjectId: key,
      before: logged(current),
      after: logged(next),
    });
    return { ok: true } as const;
  });
}

/** What the audit log keeps of a goal: its fields, and of its description only the size. */
const loggedGoal = ({ id: _id, descriptionMd, ...row }: GoalRow) => ({
  ...row,
  characters: descriptionMd.length,
});

/** Every goal, the latest start first (as the fundraiser picks the one shown), for the admin's list. */
export function listGoals() {
  return db()
    .select()
    .from(fundraiserGoals)
    .orderBy(desc(fundraiserGoals.startsAt), desc(fundraiserGoals.id));
}

/** A goal as its form opens it, with its digest. */
export async function getGoalForEdit(id: number) {
  const [row] = await db().select().from(fundraiserGoals).where(eq(fundraiserGoals.id, id));
  return row && { row, base: digest(row) };
}

export type GoalSaveOutcome =
  | { ok: true; id: number }
  | { ok: false; reason: "notFound" | "conflict" | "titleTaken" | "endsBeforeStart" };

const goalValues = ({ base: _base, target, ...input }: GoalInput) => ({ ...input, targetCents: target });

/** A goal's title is unique (the table's unique index decides, races included); its end after its start. */
async function writeGoal(input: GoalInput, write: () => Promise<GoalSaveOutcome>): Promise<GoalSaveOutcome> {
  if (input.endsAt && input.endsAt.getTime() <= input.startsAt.getTime())
    return { ok: false, reason: "endsBeforeStart" };
  try {
    return await write();
  } catch (error) {
    if (violatedUniqueConstraint(error) === "fundraiser_goals_title_unique")
      return { ok: false, reason: "titleTaken" };
    throw error;
  }
}

/** A new goal (audited). */
export function createGoal(input: GoalInput, actor: AdminActor): Promise<GoalSaveOutcome> {
  return writeGoal(input, () =>
    db().transaction(async (tx) => {
      const [created] = await tx.insert(fundraiserGoals).values(goalValues(input)).returning();
      if (!created) throw new Error("no goal created");
      await recordAudit(tx, actor, {
        action: "goal.create",
        subjectType: "goal",
        subjectId: created.id,
        after: loggedGoal(created),
      });
      return { ok: true, id: created.id } as const;
    }),
  );
}

/** Saves a goal made from the version with digest `base`: the row is locked and compared (else a conflict). */
export function saveGoal(id: number, input: GoalInput, actor: AdminActor): Promise<GoalSaveOutcome> {
  return writeGoal(input, () =>
    db().transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(fundraiserGoals)
        .where(eq(fundraiserGoals.id, id))
        .for("update");
      if (!current) return { ok: false, reason: "notFound" } as const;
      if (digest(current) !== input.base) return { ok: false, reason: "conflict" } as const;
      const [saved] = await tx
        .update(fundraiserGoals)
        .set(goalValues(input))
        .where(eq(fundraiserGoals.id, id))
        .returning();
      if (!saved) throw new Error(`goal ${id} vanished under its lock`);
      await recordAudit(tx, actor, {
        action: "goal.update",
        subjectType: "goal",
        subjectId: id,
        before: loggedGoal(current),
        after: loggedGoal(saved),
      });
      return { ok: true, id } as const;
    }),
  );
}

/** Deletes a goal (audited with what it was). Money received is not the goal's: nothing else changes. */
export function deleteGoal(id: number, actor: AdminActor): Promise<GoalRow | undefined> {
  return db().transaction(async (tx) => {
    const [gone] = await tx.delete(fundraiserGoals).where(eq(fundraiserGoals.id, id)).returning();
    if (!gone) return undefined;
    await recordAudit(tx, actor, {
      action: "goal.delete",
      subjectType: "goal",
      subjectId: id,
      before: loggedGoal(gone),
    });
    return gone;
  });
}
