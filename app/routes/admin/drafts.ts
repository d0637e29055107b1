import { data } from "react-router";
import { z } from "zod";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { CHAPTER_LIMITS } from "~/features/chapters/chapter-form";
import { saveDraft } from "~/features/content/chapter-editing.server";
import { normalisedText } from "~/lib/form-fields";
import { parseForm, readForm, wholeNumber } from "~/lib/forms";
import { MARKDOWN_MAX_BYTES } from "~/lib/markdown-limits";
import type { Route } from "./+types/drafts";

const draftSchema = z.object({
  key: z.string().regex(/^(new|chapter:\d{1,10}(:(es|fr|ja))?)$/),
  title: z.string().max(CHAPTER_LIMITS.title + 100),
  // Characters, not bytes: a draft is kept even a little over the limit, so nothing typed is lost.
  bodyMd: z
    .string()
    .max(MARKDOWN_MAX_BYTES + 1000)
    .transform(normalisedText),
  baseVersion: wholeNumber(1, 2_147_483_647).optional(),
});

/** The editor's autosave (app/features/admin/use-autosave.ts): the author's unsaved text, kept on the server. */
export async function action({ request }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const parsed = parseForm(draftSchema, await readForm(request));
  if (!parsed.ok) return data({ error: "bad-draft" }, { status: 400 });
  const { key, title, bodyMd, baseVersion } = parsed.data;
  const savedAt = await saveDraft(author.id, key, { title, bodyMd, baseVersion: baseVersion ?? null });
  return { savedAt: savedAt.toISOString() };
}

export function loader({ request }: Route.LoaderArgs) {
  return readOnlyPage(request);
}
