import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { parseCookieHeader } from "~/lib/preferences.server";
import { contentSecurityPolicy, fixedSecurityHeaders, type HeaderOptions } from "./headers";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Who is asking for a page, as far as the page's content goes: `visitor` for every reader without a session,
 * another string for a group of signed-in readers who all see the same page (see
 * app/features/page-cache/viewer.server.ts), or undefined when the page is the reader's own.
 */
export type ViewerResolver = (
  pathname: string,
  cookies: Map<string, string>,
) => string | undefined | Promise<string | undefined>;

export type PageKeyParts = { language: string; theme?: string; timeZone: string };

export type PageCacheOptions = HeaderOptions & {
  maxBytes: number;
  /** The longest an entry is served without a fresh render (relative times, monthly figures). */
  maxAgeMs: number;
  /** The content revision now, or undefined when it is not known (then nothing is served from the cache). */
  revision: () => number | undefined;
  /** The first chapter release after a time: a page rendered before it may show the chapter locked. */
  nextReleaseAfter: (time: number) => Promise<number | undefined>;
  /** The display preferences a page is rendered in (language, theme, time zone), from cookies and headers. */
  preferences: (cookies: Map<string, string>, acceptLanguage: string | undefined) => PageKeyParts;
  viewer: ViewerResolver;
};

type Encoding = "identity" | "br" | "gzip";

type Entry = {
  /** One body per encoding, compressed once when stored. */
  bodies: Record<Encoding, Buffer>;
  /**
   * Headers for each encoding, as the flat name/value list `writeHead` takes without re-checking a map:
   * type, caching, ETag, CSP with the page's script hashes, security headers.
   */
  headers: Record<Encoding, string[]>;
  /** The same for a 304: validators and caching only. */
  notModified: Record<Encoding, string[]>;
  etags: Record<Encoding, string>;
  revision: number;
  expiresAt: number;
  bytes: number;
};

/** Handed from the lookup to the render (server/react-router.ts) on a miss: where to store the page. */
export type PendingPage = {
  key: string;
  shared: "public" | "private";
  revision: number;
  startedAt: number;
  settle: (entry: Entry | undefined) => void;
};

const pendingSymbol = Symbol("pending page");

export function pendingPage(req: IncomingMessage): PendingPage | undefined {
  return (req as { [pendingSymbol]?: PendingPage })[pendingSymbol];
}

/** The hashes of a page's inline scripts (not files, not data blocks), for its CSP. */
function inlineScriptHashes(html: string): string {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\bsrc\s*=|\btype="application\/json"/.test(match[1] ?? "") || !match[2]) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(match[2]).digest("base64")}'`);
  }
  return [...hashes].join(" ");
}

/**
 * Whole pages, rendered once and kept as bytes (plain, brotli and gzip), served before the web framework
 * sees the request. A page is kept only when its route marks it shareable (app/lib/shareable.ts) and the
 * viewer resolver groups the reader with others who see the same page; its key holds everything the page
 * depends on besides the content: path, language, theme, time zone and that viewer group. Content changes
 * move the content revision and retire every entry; a chapter release retires entries rendered before it.
 */
export class PageCache {
  private entries = new Map<string, Entry>();
  private pending = new Map<string, Promise<Entry | undefined>>();
  private bytes = 0;

  constructor(private options: PageCacheOptions) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * Answers a page request from the cache, or calls `next` to render it (after marking the request with
   * where to keep the result). Requests the cache cannot answer go straight to `next`. Synchronous for
   * visitors: every promise costs on this path.
   */
  handle(req: IncomingMessage, res: ServerResponse, requestId: string, next: () => void) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query < 0 ? url : url.slice(0, query);
    // Pages and their route data (`.data`, which React Router may narrow with `?_routes=`) only: no other
    // query strings, no files (a dot in the last segment), assets or media.
    const routeData = pathname.endsWith(".data");
    if (query >= 0 && !(routeData && /^_routes=[\w%.,-]+$/.test(url.slice(query + 1)))) return next();
    if (pathname.startsWith("/assets/") || pathname.startsWith("/media/")) return next();
    if (!routeData && pathname.lastIndexOf(".") > pathname.lastIndexOf("/")) return next();
    const cookies = parseCookieHeader(req.headers.cookie);
    const viewer = this.options.viewer(pathname, cookies);
    const answer = (group: string | undefined) => {
      if (!group) return next();
      const { language, theme, timeZone } = this.options.preferences(
        cookies,
        req.headers["accept-language"] as string | undefined,
      );
      const key = `${url}\n${language}\n${theme ?? ""}\n${timeZone}\n${group}`;
      this.answer(req, res, requestId, key, group === "visitor" ? "public" : "private", next);
    };
    if (typeof viewer === "object") viewer.then(answer, () => next());
    else answer(viewer);
  }

  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    key: string,
    shared: PendingPage["shared"],
    next: () => void,
  ) {
    const revision = this.options.revision();
    if (revision === undefined) return next();
    const entry = this.entries.get(key);
    if (entry && entry.revision === revision && Date.now() < entry.expiresAt) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return this.send(req, res, requestId, entry);
    }
    const inFlight = this.pending.get(key);
    if (inFlight) {
      inFlight.then((rendered) => (rendered ? this.send(req, res, requestId, rendered) : next()));
      return;
    }
    // A HEAD is answered from a kept page, never kept itself: its response has no body.
    if (req.method === "HEAD") return next();
    let settle: (entry: Entry | undefined) => void = () => {};
    const promise = new Promise<Entry | undefined>((resolve) => {
      settle = resolve;
    });
    this.pending.set(key, promise);
    const page: PendingPage = {
      key,
      shared,
      revision,
      startedAt: Date.now(),
      settle: (stored) => {
        if (this.pending.get(key) === promise) this.pending.delete(key);
        settle(stored);
      },
    };
    // Whatever happens to the render (not shareable, an error, a closed connection), waiters move on.
    res.once("close", () => page.settle(undefined));
    (req as { [pendingSymbol]?: PendingPage })[pendingSymbol] = page;
    next();
  }

  /**
   * Keeps a rendered page (or its route data, `text/x-script`, with the headers React Router's client looks
   * for) under the pending key and returns the entry to send.
   */
  async store(
    page: PendingPage,
    html: Buffer,
    contentType = "text/html; charset=utf-8",
    passOn: Record<string, string> = {},
  ): Promise<Entry> {
    const [br, gz, release] = await Promise.all([
      brotli(html, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: html.length > 256 * 1024 ? 9 : 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
        },
      }),
      gzip(html, { level: 9 }),
      this.options.nextReleaseAfter(page.startedAt),
    ]);
    const bodies = { identity: html, br, gzip: gz };
    const tag = crypto.createHash("sha256").update(html).digest("base64url").slice(0, 27);
    // Public pages may be kept by any cache, but only as long as it checks with us (ETag) each time;
    // a signed-in reader's page is the same for their group, never for a shared cache.
    const cacheControl =
      page.shared === "public" ? "public, max-age=0, must-revalidate" : "private, no-cache";
    const vary = "Accept-Encoding, Accept-Language, Cookie";
    const common = Object.entries({
      ...passOn,
      "Content-Type": contentType,
      "Cache-Control": cacheControl,
      Vary: vary,
      ...(this.options.production
        ? { "Content-Security-Policy": contentSecurityPolicy(inlineScriptHashes(html.toString("utf8"))) }
        : {}),
      ...fixedSecurityHeaders(this.options),
    }).flat();
    const encodings: Encoding[] = ["identity", "br", "gzip"];
    // A strong ETag names one byte sequence, so each encoding has its own.
    const etags = { identity: `"${tag}"`, br: `"${tag}-br"`, gzip: `"${tag}-gzip"` };
    const byEncoding = (list: (encoding: Encoding) => string[]) =>
      Object.fromEntries(encodings.map((encoding) => [encoding, list(encoding)])) as Entry["headers"];
    const entry: Entry = {
      bodies,
      headers: byEncoding((encoding) => [
        ...common,
        "ETag",
        etags[encoding],
        ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]),
        "Content-Length",
        String(bodies[encoding].length),
      ]),
      notModified: byEncoding((encoding) => [
        "ETag",
        etags[encoding],
        "Cache-Control",
        cacheControl,
        "Vary",
        vary,
      ]),
      etags,
      revision: page.revision,
      expiresAt: Math.min(page.startedAt + this.options.maxAgeMs, release ?? Number.POSITIVE_INFINITY),
      bytes: html.length + br.length + gz.length + page.key.length,
    };
    if (entry.bytes <= this.options.maxBytes / 4) {
      const previous = this.entries.get(page.key);
      if (previous) this.bytes -= previous.bytes;
      this.entries.delete(page.key);
      this.entries.set(page.key, entry);
      this.bytes += entry.bytes;
      for (const [key, old] of this.entries) {
        if (this.bytes <= this.options.maxBytes) break;
        this.entries.delete(key);
        this.bytes -= old.bytes;
      }
    }
    page.settle(entry);
    return entry;
  }

  /** Sends a kept page: 304 when the browser has it, else the best encoding it takes. */
  send(req: IncomingMessage, res: ServerResponse, requestId: string, entry: Entry): void {
    const accepts = (req.headers["accept-encoding"] as string | undefined) ?? "";
    const encoding = accepts.includes("br") ? "br" : accepts.includes("gzip") ? "gzip" : "identity";
    if (req.headers["if-none-match"]?.includes(entry.etags[encoding])) {
      res.writeHead(304, entry.notModified[encoding].concat("X-Request-Id", requestId));
      res.end();
      return;
    }
    const headers = entry.headers[encoding].concat("X-Request-Id", requestId);
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : entry.bodies[encoding]);
  }
}
