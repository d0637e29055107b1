import { and, eq, exists, inArray, isNull, or, sql } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import {
  chapterAnnouncements,
  chapterTranslations,
  membershipGrants,
  payments,
  releaseMailState,
  releaseMails,
  subscriptions,
  translationAnnouncements,
  users,
} from "#db/schema";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { getMembership } from "~/features/membership/queries.server";
import { releaseTime } from "~/lib/clock.server";
import { logger } from "~/lib/logger.server";
import { type Audience, openingsBetween, readAheadTiers, tierReaches } from "./openings";

/**
 * The release time at which release e-mails began on this database, fixed by the first call (the first start
 * after migration 0023). That call also marks as announced what each tier already reads ahead then and the
 * translations there are, and no chapter released by then is ever announced: the first start mails nobody
 * about the past. Every instance reads the same row; of several first calls at once, one inserts it.
 */
export async function releaseMailBaseline(now = releaseTime(), database: Database = db()): Promise<Date> {
  const [state] = await database.select({ baselineAt: releaseMailState.baselineAt }).from(releaseMailState);
  if (state) return state.baselineAt;
  // Read before the transaction: on PGlite it holds the one connection.
  const published = (await getChapterCatalog()).published;
  const openNow = readAheadTiers.flatMap((tier) =>
    openingsBetween(published, now, now)
      .filter((opening) => opening.audience === tier)
      .map((opening) => ({ chapterId: opening.chapterId, audience: tier })),
  );
  await database.transaction(async (tx) => {
    const [made] = await tx
      .insert(releaseMailState)
      .values({ id: 1, baselineAt: now })
      .onConflictDoNothing()
      .returning({ id: releaseMailState.id });
    if (!made) return;
    if (openNow.length) await tx.insert(chapterAnnouncements).values(openNow).onConflictDoNothing();
    // Nor are the translations there are by then (the demo's, imported at the first start).
    await tx.execute(sql`
      insert into ${translationAnnouncements} (chapter_id, language)
      select chapter_id, language from ${chapterTranslations}
      on conflict do nothing`);
  });
  const [fixed] = await database.select({ baselineAt: releaseMailState.baselineAt }).from(releaseMailState);
  return fixed?.baselineAt ?? now;
}

/** Readers who asked for chapter e-mails and can receive them (not suspended). */
const optedIn = () => and(eq(users.emailNewChapters, true), isNull(users.suspendedAt));

/**
 * The opted-in readers whose tier reads what opened to `audience` now. Membership is computed, not stored
 * (ADR 10), so it is asked of `getMembership` for each reader with any record that can make a tier.
 */
async function membersReached(audience: Exclude<Audience, "public">, now: Date, database: Database) {
  const candidates = await database
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        optedIn(),
        or(
          exists(
            database
              .select({ one: sql`1` })
              .from(payments)
              .where(and(eq(payments.userId, users.id), inArray(payments.status, ["paid", "refunded"]))),
          ),
          exists(
            database
              .select({ one: sql`1` })
              .from(membershipGrants)
              .where(eq(membershipGrants.userId, users.id)),
          ),
          exists(
            database.select({ one: sql`1` }).from(subscriptions).where(eq(subscriptions.userId, users.id)),
          ),
        ),
      ),
    );
  const reached: number[] = [];
  for (const { id } of candidates)
    if (tierReaches((await getMembership(id, now)).tier, audience)) reached.push(id);
  return reached;
}

/**
 * Queues the e-mails of every chapter opening due at `now` (ADR 45): a row per opted-in reader, at most one
 * per reader and chapter. Each opening is claimed by inserting its announcement row in the transaction that
 * queues its e-mails, so of several instances one queues it and the others find it done. Nothing is sent here.
 * Returns how many e-mails were queued.
 */
export async function announceOpenings(now = releaseTime(), database: Database = db()): Promise<number> {
  const baseline = await releaseMailBaseline(now, database);
  const due = openingsBetween((await getChapterCatalog()).published, baseline, now);
  if (!due.length) return 0;
  const done = await database
    .select({ chapterId: chapterAnnouncements.chapterId, audience: chapterAnnouncements.audience })
    .from(chapterAnnouncements)
    .where(
      inArray(
        chapterAnnouncements.chapterId,
        due.map((opening) => opening.chapterId),
      ),
    );
  const announced = new Set(done.map((row) => `${row.chapterId}:${row.audience}`));
  let queued = 0;
  for (const { chapterId, audience } of due) {
    if (announced.has(`${chapterId}:${audience}`)) continue;
    // Members are found before the transaction: on PGlite it holds the one connection.
    const members = audience === "public" ? [] : await membersReached(audience, now, database);
    queued += await database.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(chapterAnnouncements)
        .values({ chapterId, audience })
        .onConflictDoNothing()
        .returning({ chapterId: chapterAnnouncements.chapterId });
      if (!claimed) return 0;
      if (audience === "public") {
        // Its release e-mail is in each reader's language where the translation is out: those are told.
        await tx.execute(sql`
          insert into ${translationAnnouncements} (chapter_id, language)
          select chapter_id, language from ${chapterTranslations} where chapter_id = ${chapterId}::integer
          on conflict do nothing`);
        // One statement for any number of readers; a reader already told (early) keeps their one e-mail.
        const result = await tx.execute(sql`
          insert into ${releaseMails} (user_id, chapter_id, kind)
          select ${users.id}, ${chapterId}::integer, 'release' from ${users} where ${optedIn()}
          on conflict do nothing
          returning id`);
        const rows = (result as unknown as { rows: unknown[] }).rows;
        return rows.length;
      }
      if (!members.length) return 0;
      const rows = await tx
        .insert(releaseMails)
        .values(members.map((userId) => ({ userId, chapterId, kind: "early" as const })))
        .onConflictDoNothing()
        .returning({ id: releaseMails.id });
      return rows.length;
    });
  }
  if (queued) logger.info({ event: "release-mails.queued", queued }, "release e-mails queued");
  return queued;
}

/**
 * Queues the e-mails of every chapter translation that came out after its chapter's release (ADR 94): to the
 * opted-in readers whose language it is, once each. Claimed like an opening: the instance that inserts the
 * announcement row queues its e-mails in the same transaction. Returns how many e-mails were queued.
 */
export async function announceTranslations(now = releaseTime(), database: Database = db()): Promise<number> {
  // Released, and its release announced (which marks the translations it had then) or before the baseline: a
  // release still to be announced by another instance waits for it, so its readers are told once.
  const baseline = await releaseMailBaseline(now, database);
  const announced = new Set(
    (
      await database
        .select({ chapterId: chapterAnnouncements.chapterId })
        .from(chapterAnnouncements)
        .where(eq(chapterAnnouncements.audience, "public"))
    ).map((row) => row.chapterId),
  );
  const released = new Set(
    (await getChapterCatalog()).published
      .filter(
        (chapter) =>
          chapter.releaseAt.getTime() <= now.getTime() &&
          (chapter.releaseAt.getTime() <= baseline.getTime() || announced.has(chapter.id)),
      )
      .map((chapter) => chapter.id),
  );
  const due = (
    await database
      .select({ chapterId: chapterTranslations.chapterId, language: chapterTranslations.language })
      .from(chapterTranslations)
      .leftJoin(
        translationAnnouncements,
        and(
          eq(translationAnnouncements.chapterId, chapterTranslations.chapterId),
          eq(translationAnnouncements.language, chapterTranslations.language),
        ),
      )
      .where(isNull(translationAnnouncements.chapterId))
  ).filter((translation) => released.has(translation.chapterId));
  let queued = 0;
  for (const { chapterId, language } of due)
    queued += await database.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(translationAnnouncements)
        .values({ chapterId, language })
        .onConflictDoNothing()
        .returning({ chapterId: translationAnnouncements.chapterId });
      if (!claimed) return 0;
      const result = await tx.execute(sql`
        insert into ${releaseMails} (user_id, chapter_id, kind, language)
        select ${users.id}, ${chapterId}::integer, 'translation', ${language} from ${users}
        where ${optedIn()} and ${users.language} = ${language}
        on conflict do nothing
        returning id`);
      return (result as unknown as { rows: unknown[] }).rows.length;
    });
  if (queued)
    logger.info({ event: "release-mails.translations-queued", queued }, "translation e-mails queued");
  return queued;
}
