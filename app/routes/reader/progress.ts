import { data } from "react-router";
import { z } from "zod";
import { evaluateAchievements, localized } from "~/features/achievements/queries.server";
import { requireUserForApi } from "~/features/auth/guards.server";
import { type ChapterProgress, parseProgress } from "~/features/reader/progress";
import { getProgress, readerTimeZone, saveProgress } from "~/features/reader/queries.server";
import { serverTranslator } from "~/i18n/server";
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

/** A signed-in reader's progress in one chapter (`?chapter=N`), as the account has it. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUserForApi(request);
  const chapter = parseId(new URL(request.url).searchParams.get("chapter"));
  if (chapter === undefined) return data({ error: "bad-chapter" }, { status: 400 });
  const progress = await getProgress(user.id, [chapter]);
  return Response.json(
    { progress: progress[chapter] ?? null },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Signed-in readers' progress, sent in batches (and by sendBeacon when a page is left). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUserForApi(request);
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return data({ error: "bad-json" }, { status: 400 });
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return data({ error: "bad-progress" }, { status: 400 });
  const { language } = getPreferences(request);
  const timeZone = await readerTimeZone(user, canonicalTimeZone(readCookies(request).get("tz")));
  let notable = false;
  for (const entry of parsed.data.entries) {
    const progress = parseProgress(entry.progress);
    const change =
      progress && (await saveProgress(user.id, entry.chapter, progress, new Date(), { timeZone, language }));
    if (change && (change.completed || change.readingDay || change.bookmarked)) notable = true;
  }
  // Only a write that may earn an achievement looks (the page sends one a second while reading).
  const earned = notable ? (await evaluateAchievements(user.id)).awarded : [];
  return {
    saved: parsed.data.entries.length,
    // What this write earned, in the reader's language, for the chapter page's toast.
    earned: earned.map((achievement) =>
      serverTranslator(language)("achievements.toast", {
        icon: achievement.icon,
        name: localized(achievement.name, language),
      }),
    ),
  };
}
