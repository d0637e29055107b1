import { requireAuthor } from "~/features/auth/guards.server";
import { renderMarkdown } from "~/features/content/markdown.server";
import { readForm } from "~/lib/forms";
import { MARKDOWN_MAX_BYTES, markdownBytes } from "~/lib/markdown-limits";
import type { Route } from "./+types/preview";

/**
 * The editor's live preview: POST `bodyMd` (a multipart form), get `{ html }` rendered by the reader's own
 * pipeline (Markdown, then the sanitiser), so the author sees what readers will get. An author's GET is a
 * 405; anyone else gets the admin's 404 for any method, before the body is read. Answers are returned, not
 * thrown: a resource route's thrown answer loses its body and headers.
 */
const notAllowed = () => new Response(null, { status: 405, headers: { Allow: "POST" } });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAuthor(request);
  return notAllowed();
}

export async function action({ request }: Route.ActionArgs) {
  await requireAuthor(request);
  if (request.method !== "POST") return notAllowed();
  const body = (await readForm(request)).get("bodyMd");
  if (typeof body !== "string")
    return Response.json({ error: "admin.editor.previewMissing" }, { status: 400 });
  if (markdownBytes(body) > MARKDOWN_MAX_BYTES)
    return Response.json({ error: "admin.editor.tooLong" }, { status: 400 });
  return { html: renderMarkdown(body) };
}
