import { data } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { downloadEpub, refusedDownload } from "~/features/epub/download.server";
import { parseId } from "~/lib/parse";
import { getPreferences } from "~/lib/preferences.server";
import type { Route } from "./+types/epub";

/**
 * The EPUB of the serial (`/epub`) or of a volume (`/epub/volume/N`) holding what the reader may open (ADR
 * 89), as a file to save. A refusal (too many downloads, a book past its size) is a short translated text.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const volume = params.volume === undefined ? undefined : parseId(params.volume);
  if (params.volume !== undefined && volume === undefined) throw data(null, { status: 404 });
  const user = await getSessionUser(request);
  const { language } = getPreferences(request);
  const download = await downloadEpub(user, { volume }, language, context).catch((error: unknown) => {
    const refused = refusedDownload(error, language);
    if (refused) return refused;
    throw error;
  });
  if (download instanceof Response) return download;
  if (!download) throw data(null, { status: 404 });
  return new Response(download.file, {
    headers: {
      "Content-Type": "application/epub+zip",
      "Content-Disposition": `attachment; filename="${download.filename}"`,
      "Content-Length": String(download.file.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
