import { data } from "react-router";
import { z } from "zod";
import { achievementsAfterWrite, localized } from "~/features/achievements/queries.server";
import { requireUserForApi } from "~/features/auth/guards.server";
import { getKeptSessionUser, SESSION_UNCHANGED_HEADER } from "~/features/auth/session.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { chapterLock, visibleChapter } from "~/features/reader/access.server";
import { toMarks } from "~/features/reader/continue";
import { type ChapterProgress, parseProgress } from "~/features/reader/progress";
import type { ProgressChange } from "~/features/reader/progress-writes.server";
import { getProgress, readerTimeZone, saveProgress } from "~/features/reader/queries.server";
import { countVisitorProgress, MAX_VIEW_LENGTH } from "~/features/reader/visitor-views.server";
import { serverTranslator } from "~/i18n/server";
import { readingTime, releaseTime } from "~/lib/clock.server";
import { INT32_MAX, parseId } from "~/lib/parse";
import { canonicalTimeZone, getPreferences, readCookies } from "~/lib/preferences.server";
import type { Route } from "./+types/progress";

const bodySchema = z.object({
  entries: z
    .array(
      z.object({
        chapter: z.number().int().positive().max(INT32_MAX),
        progress: z.custom<ChapterProgress>((value) => parseProgress(value) !== undefined),
      }),
    )
    .min(1)
    .max(500),
});

/**
 * A visitor's write: one chapter's record and the view the last answer gave (visitor-views.server.ts). A
 * visitor's page sends one small record at a time, so anything longer is refused unread.
 */
const visitorSchema = z.object({
  entries: z
    .array(
      z.object({
        chapter: z.number().int().positive().max(INT32_MAX),
        progress: z.custom<ChapterProgress>((value) => parseProgress(value) !== undefined),
      }),
    )
    .length(1),
  view: z.string().max(MAX_VIEW_LENGTH).optional(),
});
const MAX_VISITOR_BODY = 2048;

/**
 * A signed-in reader's progress in one chapter (`?chapter=N`), as the account has it; without `chapter`, the
 * marks of every chapter they opened (the table of contents', kept for many readers: ADR 101).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUserForApi(request, getKeptSessionUser);
  const query = new URL(request.url).searchParams;
  if (!query.has("chapter"))
    return Response.json(
      { marks: toMarks(await getProgress(user.id)) },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  const chapter = parseId(query.get("chapter"));
  if (chapter === undefined) return data({ error: "bad-chapter" }, { status: 400 });
  const progress = await getProgress(user.id, [chapter]);
  return Response.json(
    { progress: progress[chapter] ?? null },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/**
 * Visitors' progress counts their reading, without keeping anything of them: one record of a chapter open to
 * every visitor (404 for one that does not exist for them, 403 for one locked), answered with the view to
 * send back next time.
 */
async function visitorAction(text: string, address: string) {
  if (text.length > MAX_VISITOR_BODY) return data({ error: "too-large" }, { status: 413 });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return data({ error: "bad-json" }, { status: 400 });
  }
  const parsed = visitorSchema.safeParse(body);
  const entry = parsed.data?.entries[0];
  const progress = entry && parseProgress(entry.progress);
  if (!parsed.success || !entry || !progress) return data({ error: "bad-progress" }, { status: 400 });
  const chapter = visibleChapter(await getChapterCatalog(), entry.chapter, undefined);
  if (!chapter) return data({ error: "unknown-chapter", refused: [entry.chapter] }, { status: 404 });
  if (await chapterLock(chapter, undefined, releaseTime()))
    return data({ error: "locked-chapter", refused: [entry.chapter] }, { status: 403 });
  return { saved: 1, view: await countVisitorProgress(chapter, progress, parsed.data.view, address) };
}

/**
 * Signed-in readers' progress, sent in batches (and by sendBeacon when a page is left). Progress is kept only
 * in chapters the reader may open now (the chapter access rule): an entry for a chapter that does not exist
 * for them answers 404, one for a chapter locked to them 403; the other entries of the batch are kept (the
 * sign-in hand-over of a browser's reading sends many at once).
 */
export async function action({ request, context }: Route.ActionArgs) {
  // The kept session (ADR 79): progress changes nothing of it, and comes from every reader every 15 s.
  const user = await getKeptSessionUser(request);
  const text = await request.text();
  if (!user) return visitorAction(text, context.ip);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return data({ error: "bad-json" }, { status: 400 });
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return data({ error: "bad-progress" }, { status: 400 });
  const { language } = getPreferences(request);
  const timeZone = await readerTimeZone(user, canonicalTimeZone(readCookies(request).get("tz")));
  const sessionKept = timeZone === user.timeZone;
  const catalog = await getChapterCatalog();
  const now = releaseTime();
  const unknown: number[] = [];
  const locked: number[] = [];
  const saving: Promise<ProgressChange | undefined>[] = [];
  for (const entry of parsed.data.entries) {
    const chapter = visibleChapter(catalog, entry.chapter, user);
    if (!chapter) {
      unknown.push(entry.chapter);
      continue;
    }
    if (await chapterLock(chapter, user, now)) {
      locked.push(entry.chapter);
      continue;
    }
    const progress = parseProgress(entry.progress);
    // Queued together, in order: one batch writes them (ADR 67).
    if (progress)
      saving.push(
        saveProgress(user.id, entry.chapter, progress, readingTime(user.id), { timeZone, language }),
      );
  }
  const changes = await Promise.all(saving);
  const notable = changes.some(
    (change) => change && (change.completed || change.readingDay || change.bookmarked),
  );
  // Only a write that may earn an achievement looks (most writes only add reading time). The writes are
  // committed: from here on a database outage no longer fails them.
  const { awarded: earned, settled } = notable
    ? await achievementsAfterWrite(user.id)
    : { awarded: [], settled: true };
  const saved = parsed.data.entries.length - unknown.length - locked.length;
  if (unknown.length || locked.length)
    return data(
      {
        error: unknown.length ? "unknown-chapter" : "locked-chapter",
        saved,
        refused: [...unknown, ...locked],
      },
      { status: unknown.length ? 404 : 403 },
    );
  return data(
    {
      saved,
      // What this write earned, in the reader's language, for the chapter page's toast.
      earned: earned.map((achievement) =>
        serverTranslator(language)("achievements.toast", {
          icon: achievement.icon,
          name: localized(achievement.name, language),
        }),
      ),
    },
    // Only the reader's progress moved (no new time zone, no achievement, whose coins and badge their
    // session's pages show): their kept session stays, their own pages are forgotten (ADR 79).
    sessionKept && settled && earned.length === 0
      ? { headers: { [SESSION_UNCHANGED_HEADER]: "1" } }
      : undefined,
  );
}
