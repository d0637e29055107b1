import type { SessionUser } from "~/features/auth/session.server";
import { consume, Throttled } from "~/features/auth/throttle.server";
import { getSiteSettings } from "~/features/site/queries.server";
import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import type { RequestMeta } from "~/lib/context";
import { AppError } from "~/lib/errors";
import { buildEpub } from "./build.server";
import { bookContents, type EpubScope } from "./contents.server";
import { EPUB_LIMITS, epubDownloadRule } from "./limits";

/** A book past the file limit: the serial is downloaded volume by volume then. */
export class EpubTooLarge extends AppError {
  override name = "EpubTooLarge";
  constructor() {
    super("epub-too-large", 413, "epub.tooLarge", "The EPUB is past its size limit");
  }
}

/**
 * The files made, by what they hold (`BookContents.key`), least recently used first: memory bounded by
 * `EPUB_LIMITS.cacheBytes`. A file is made once per reader's access, name and content revision; a request for
 * one being made waits for it rather than making it again.
 */
const kept = new Map<string, Uint8Array<ArrayBuffer>>();
let keptBytes = 0;
const making = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

function keep(key: string, file: Uint8Array<ArrayBuffer>) {
  // A file larger than half the budget would push out everything else: it is made again when asked.
  if (file.length > EPUB_LIMITS.cacheBytes / 2) return;
  kept.set(key, file);
  keptBytes += file.length;
  for (const [oldest, bytes] of kept) {
    if (keptBytes <= EPUB_LIMITS.cacheBytes) break;
    kept.delete(oldest);
    keptBytes -= bytes.length;
  }
}

/** Forgets every kept file (tests). */
export function forgetKeptEpubs(): void {
  kept.clear();
  keptBytes = 0;
}

/** A safe file name: the site's title in ASCII letters and digits, and the volume. */
export function epubFilename(siteTitle: string, volume: number | undefined): string {
  const base =
    siteTitle
      .normalize("NFKD")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, "-")
      .slice(0, 60)
      .replace(/^-+|-+$/g, "") || "serial";
  return volume === undefined ? `${base}.epub` : `${base}-volume-${volume}.epub`;
}

/**
 * The EPUB a reader (or a visitor) downloads of the scope, with its file name; undefined when the scope holds
 * no chapter. Counted against the download rule per reader (per address for visitors) before anything else:
 * past it, `Throttled` (429).
 */
export async function downloadEpub(
  user: SessionUser | undefined,
  scope: EpubScope,
  language: Language,
  meta: RequestMeta,
): Promise<{ file: Uint8Array<ArrayBuffer>; filename: string } | undefined> {
  await consume(user ? `epub:user:${user.id}` : `epub:ip:${meta.ip}`, epubDownloadRule, meta);
  const contents = await bookContents(user, scope, language);
  if (!contents) return undefined;
  const filename = epubFilename((await getSiteSettings()).title, scope.volume);
  const hit = kept.get(contents.key);
  if (hit) {
    // Most recently used last.
    kept.delete(contents.key);
    kept.set(contents.key, hit);
    return { file: hit, filename };
  }
  let pending = making.get(contents.key);
  if (!pending) {
    pending = buildEpub(contents).finally(() => making.delete(contents.key));
    making.set(contents.key, pending);
  }
  const file = await pending;
  if (file.length > EPUB_LIMITS.fileBytes) throw new EpubTooLarge();
  if (!kept.has(contents.key)) keep(contents.key, file);
  return { file, filename };
}

/**
 * A refused download as the reader's browser shows it, a short translated text (429 with Retry-After past the
 * download limit, 413 for a book past its size); undefined for any other error.
 */
export function refusedDownload(error: unknown, language: Language): Response | undefined {
  if (!(error instanceof Throttled || error instanceof EpubTooLarge)) return undefined;
  const t = serverTranslator(language);
  const message =
    error instanceof Throttled
      ? t("epub.throttled", { count: Math.max(1, Math.ceil(error.retryAfterSeconds / 60)) })
      : t("epub.tooLarge");
  return new Response(message, {
    status: error.status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      ...(error instanceof Throttled ? { "Retry-After": String(error.retryAfterSeconds) } : {}),
    },
  });
}
