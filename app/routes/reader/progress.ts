import { data } from "react-router";
import { z } from "zod";
import { requireUserForApi } from "~/features/auth/guards.server";
import { type ChapterProgress, parseProgress } from "~/features/reader/progress";
import { getProgress, saveProgress } from "~/features/reader/queries.server";
import { INT32_MAX, parseId } from "~/lib/parse";
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
  for (const entry of parsed.data.entries) {
    const progress = parseProgress(entry.progress);
    if (progress) await saveProgress(user.id, entry.chapter, progress);
  }
  return { saved: parsed.data.entries.length };
}
