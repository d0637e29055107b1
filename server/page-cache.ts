import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { parseCookieHeader } from "~/lib/preferences.server";
import { type Encoding, preferredEncoding } from "./encoding";
import { FrequencySketch } from "./frequency-sketch";
import { fixedSecurityHeaders, type HeaderOptions } from "./headers";
import { dropRequestPolicy, keptPagePolicy } from "./kept-page-csp";

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
  /**
   * The revision a page at `pathname` in `language` is kept by now (the content's, of which a translation's edit
   * moves only its language's: ADR 86; with the comments' for pages that show comments), or undefined when it
   * is not known (then nothing is served from the cache).
   */
  revision: (pathname: string, language: string) => number | undefined;
  /** The first chapter release after a time: a page rendered before it may show the chapter locked. */
  nextReleaseAfter: (time: number) => Promise<number | undefined>;
  /** The release time now, in ms (the real time unless a test moved it: app/lib/clock.server.ts). */
  now?: () => number;
  /** Told of each render the cache asks for (a miss), with the page's key: logged at debug level. */
  onRender?: (key: string) => void;
  /** The display preferences a page is rendered in (language, theme, time zone), from cookies and headers. */
  preferences: (
    cookies: Map<string, string>,
    acceptLanguage: string | undefined,
    pathname: string,
  ) => PageKeyParts;
  viewer: ViewerResolver;
  /**
   * The canonical query string of a request (see app/features/page-cache/query.server.ts): only what the
   * page reads, in one spelling; "" when it reads nothing; undefined when no kept page answers it.
   */
  canonicalQuery: (pathname: string, query: string) => string | undefined;
  /**
   * How long after its render a kept page may still be served while the database fails (the content revision
   * is unknown, or a render answers 5xx): stale-if-error, bounded so an outage never serves very old pages.
   */
  staleMs: number;
  /**
   * The most pages kept for one URL (path and canonical query) across languages, themes, time zones and viewer
   * groups; a further variant is rendered and kept only in place of a less asked-for one (ADR 62).
   */
  maxVariantsPerUrl?: number;
  /**
   * Whether a viewer group is one reader's (their own pages, ADR 53): such a page is asked again by that
   * reader alone, if at all, so it is not recompressed at the best brotli (ADR 71: that took more of a core
   * than the render itself, for a few hundred bytes one reader might download once more).
   */
  oneReader?: (group: string) => boolean;
};

/** Kept variants of one URL by default: 4 languages × 3 themes, a few time zones or reading settings each. */
const MAX_VARIANTS_PER_URL = 64;
/**
 * The keys the admission sketch tells apart: one per 16 KB of the bound (a kept chapter page with its three
 * encodings is 20-60 KB), and at least 4,096 (64 KB of counters), so a small cache still tells a page asked for
 * twice from thousands asked for once.
 */
function sketchKeys(maxBytes: number): number {
  return Math.max(4096, Math.ceil(maxBytes / 16_384));
}

/** A miss is compressed fast, so a burst of misses costs little; a background job brings brotli to this. */
const FAST_BROTLI = 5;
const BEST_BROTLI = 11;
/** Upgrades waiting; more are dropped (those entries keep their fast brotli until rendered again). */
const MAX_UPGRADES = 1000;
/** Paths known to be shareable (a render kept them); about one per page of the site. */
const MAX_SHAREABLE_PATHS = 20_000;
/** What an entry's objects (the maps of bodies, headers and ETags, the arrays) cost besides their strings. */
const ENTRY_OVERHEAD = 2048;

/** What `timelessPages` holds for a pending page: its path and viewer group (the key's last line). */
function timelessMark(page: PendingPage): string {
  return `${page.pathname}\n${page.key.slice(page.key.lastIndexOf("\n") + 1)}`;
}

/** A key with the time zone UTC as the same key without a time zone (the fourth of its five lines). */
function utcAsTimeless(key: string): string {
  const parts = key.split("\n");
  if (parts.length !== 5 || parts[3] !== "UTC") return key;
  parts[3] = "";
  return parts.join("\n");
}

/** A Cookie header without the `tz` cookie. */
function withoutTimeZone(header: string | undefined): string | undefined {
  return header
    ?.split(";")
    .filter((part) => part.trim().split("=", 1)[0] !== "tz")
    .join(";");
}

function brotliQuality(html: Buffer, best: boolean): number {
  if (!best) return FAST_BROTLI;
  return html.length > 256 * 1024 ? 9 : BEST_BROTLI;
}

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
  /** What every encoding's headers share, to rebuild one encoding's when its body changes. */
  common: string[];
  cacheControl: string;
  /** The hash of the plain bytes, the stem of every encoding's ETag. */
  tag: string;
  brotliQuality: number;
  revision: number;
  /** When the render began: the base of `expiresAt` and of the stale-if-error bound. */
  renderedAt: number;
  expiresAt: number;
  bytes: number;
  /** The URL it answers (path and canonical query): its variants are bounded (`maxVariantsPerUrl`). */
  url: string;
  pathname: string;
  /** The language it is rendered in: what a translation's edit retires (ADR 86). */
  language: string;
};

/** The language a key names (its second line, as the request handler writes it). */
const languageOf = (key: string) => key.split("\n", 2)[1] ?? "";

const VARY = "Accept-Encoding, Accept-Language, Cookie";

/** Sets one encoding's body with its ETag (a strong one names one byte sequence) and headers. */
function setBody(entry: Entry, encoding: Encoding, body: Buffer, etag: string) {
  entry.bodies[encoding] = body;
  entry.etags[encoding] = etag;
  entry.headers[encoding] = [
    ...entry.common,
    "ETag",
    etag,
    ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]),
    "Content-Length",
    String(body.length),
  ];
  entry.notModified[encoding] = ["ETag", etag, "Cache-Control", entry.cacheControl, "Vary", VARY];
}

/** Handed from the lookup to the render (server/react-router.ts) on a miss: where to store the page. */
export type PendingPage = {
  key: string;
  /** The request's path: once a page is kept under it, other query strings for it are answered as it. */
  pathname: string;
  shared: "public" | "private";
  revision: number;
  startedAt: number;
  /**
   * Whether the key leaves out the time zone, the page at this path having said it shows no date or time: the
   * request then renders without the reader's `tz` cookie (in UTC), and `cookie` is the header it came with.
   */
  timeless: boolean;
  cookie: string | undefined;
  /** The first chapter release after `startedAt`: the page it renders holds until then at most. */
  nextRelease: Promise<number | undefined>;
  /** Hands the kept page (or none) to the requests waiting for it; `stale` when it is an old one. */
  settle: (entry: Entry | undefined, stale?: boolean) => void;
};

type Settled = { entry: Entry; stale: boolean } | undefined;

/** A render on its way, which requests for the same key wait for (single flight). */
type InFlight = { settled: Promise<Settled>; nextRelease: Promise<number | undefined> };

const pendingSymbol = Symbol("pending page");

export function pendingPage(req: IncomingMessage): PendingPage | undefined {
  return (req as { [pendingSymbol]?: PendingPage })[pendingSymbol];
}

/**
 * Whole pages, rendered once and kept as bytes (plain, brotli and gzip), served before the web framework
 * sees the request. A page is kept only when its route marks it shareable (app/lib/shareable.ts) and the
 * viewer resolver groups the reader with others who see the same page; its key holds everything the page
 * depends on besides the content, each in its one canonical spelling so no request can invent new keys:
 * path, the query parameters the page reads, language, theme, time zone (unless the page said it shows no date
 * or time) and that viewer group. Content changes move the content revision and retire every entry; a chapter
 * release retires entries rendered before it. While the database fails, a retired entry is still served for a
 * bounded time (stale-if-error).
 *
 * Bounded by bytes (`maxBytes`, everything an entry holds) and by variants per URL; a new page pushes kept
 * ones out only when it was asked for more often than they were lately (TinyLFU admission, ADR 62), so a
 * flood of keys each asked for once cannot empty the cache of the pages readers come back to.
 */
export class PageCache {
  private entries = new Map<string, Entry>();
  private pending = new Map<string, InFlight>();
  private bytes = 0;
  private shareablePaths = new Set<string>();
  /**
   * Paths, each with a viewer group, whose last render said the page shows no date or time: keyed and rendered
   * without a time zone. Per group, as one path may show a date to some and not others (a chapter members
   * read ahead while visitors wait for its release).
   */
  private timelessPages = new Set<string>();
  /** The keys kept for each URL. */
  private variants = new Map<string, Set<string>>();
  private sketch: FrequencySketch;
  private maxVariantsPerUrl: number;
  private upgrades: string[] = [];
  private upgrading = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private options: PageCacheOptions) {
    this.sketch = new FrequencySketch(sketchKeys(options.maxBytes));
    this.maxVariantsPerUrl = options.maxVariantsPerUrl ?? MAX_VARIANTS_PER_URL;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

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
    let url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query < 0 ? url : url.slice(0, query);
    // Pages and their route data (`.data`) only: no files (a dot in the last segment), assets or media.
    const routeData = pathname.endsWith(".data");
    if (pathname.startsWith("/assets/") || pathname.startsWith("/media/")) return next();
    if (!routeData && pathname.lastIndexOf(".") > pathname.lastIndexOf("/")) return next();
    if (query >= 0) {
      const canonical = this.options.canonicalQuery(pathname, url.slice(query + 1));
      if (canonical === undefined) return next();
      const canonicalUrl = canonical ? `${pathname}?${canonical}` : pathname;
      if (canonicalUrl !== url) {
        // Parameters the page does not read (or values it ignores). Whether the path is a shareable page at
        // all (not /login?redirectTo=) only a render tells: once one kept it, the request is that page's,
        // and is rendered as it on a miss, so the key and the page agree.
        if (!this.shareablePaths.has(pathname)) return next();
        url = canonicalUrl;
      }
    }
    const cookies = parseCookieHeader(req.headers.cookie);
    const viewer = this.options.viewer(pathname, cookies);
    const answer = (group: string | undefined) => {
      // A reader's own page (no group) is rendered as asked, with every parameter (`?payment=` on a locked
      // chapter); a shared one as its canonical URL, so the key and the page agree.
      if (!group) return next();
      req.url = url;
      const { language, theme, timeZone } = this.options.preferences(
        cookies,
        req.headers["accept-language"] as string | undefined,
        pathname,
      );
      // A page that shows no time is one page in every zone: rendered without the reader's, so the kept bytes
      // (the root's data names the zone it was rendered in) are the same whoever asked first.
      const timeless = this.timelessPages.has(`${pathname}\n${group}`);
      const cookie = req.headers.cookie;
      if (timeless && cookies.has("tz")) req.headers.cookie = withoutTimeZone(cookie);
      const key = `${url}\n${language}\n${theme ?? ""}\n${timeless ? "" : timeZone}\n${group}`;
      const shared = group === "visitor" ? "public" : "private";
      this.answer(req, res, requestId, key, pathname, shared, { timeless, cookie }, next);
    };
    if (typeof viewer === "object") viewer.then(answer, () => next());
    else answer(viewer);
  }

  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    key: string,
    pathname: string,
    shared: PendingPage["shared"],
    zone: Pick<PendingPage, "timeless" | "cookie">,
    next: () => void,
  ) {
    this.sketch.record(key);
    const revision = this.options.revision(pathname, languageOf(key));
    const entry = this.entries.get(key);
    if (revision === undefined) {
      // The revision poll fails: the database does not answer. What was kept is better than an error page.
      const stale = entry && this.staleUsable(entry);
      return stale ? this.send(req, res, requestId, stale, "stale") : next();
    }
    if (entry && entry.revision === revision && this.now() < entry.expiresAt) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return this.send(req, res, requestId, entry);
    }
    const wait = () => {
      const inFlight = this.pending.get(key);
      if (!inFlight) return this.render(req, res, key, pathname, shared, revision, zone, next);
      // A render that started before a chapter release the request came after may show the chapter locked:
      // the request waits for one that started after it (starting it if none has yet).
      void inFlight.nextRelease.then((release) => {
        if (release !== undefined && release <= this.now())
          return this.pending.get(key) === inFlight
            ? this.render(req, res, key, pathname, shared, revision, zone, next)
            : wait();
        inFlight.settled.then((settled) =>
          settled ? this.send(req, res, requestId, settled.entry, settled.stale ? "stale" : "hit") : next(),
        );
      });
    };
    wait();
  }

  /** Marks the request to be rendered and kept under `key`; requests for the key wait for it meanwhile. */
  private render(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    pathname: string,
    shared: PendingPage["shared"],
    revision: number,
    zone: Pick<PendingPage, "timeless" | "cookie">,
    next: () => void,
  ) {
    // A HEAD is answered from a kept page, never kept itself: its response has no body.
    if (req.method === "HEAD") return next();
    let settle: (settled: Settled) => void = () => {};
    const settled = new Promise<Settled>((resolve) => {
      settle = resolve;
    });
    const startedAt = this.now();
    const inFlight: InFlight = { settled, nextRelease: this.options.nextReleaseAfter(startedAt) };
    // Asked once, when a waiter needs it or the page is kept; an error there keeps nothing (`store`).
    inFlight.nextRelease.catch(() => {});
    this.pending.set(key, inFlight);
    this.options.onRender?.(key);
    const page: PendingPage = {
      key,
      pathname,
      shared,
      revision,
      startedAt,
      ...zone,
      nextRelease: inFlight.nextRelease,
      settle: (stored, stale = false) => {
        if (this.pending.get(key) === inFlight) this.pending.delete(key);
        settle(stored && { entry: stored, stale });
      },
    };
    // Whatever happens to the render (not shareable, an error, a closed connection), waiters move on.
    res.once("close", () => page.settle(undefined));
    (req as { [pendingSymbol]?: PendingPage })[pendingSymbol] = page;
    next();
  }

  private staleUsable(entry: Entry): Entry | undefined {
    return this.now() < entry.renderedAt + this.options.staleMs ? entry : undefined;
  }

  /**
   * Answers a request whose render failed (5xx, or threw: the database gone) with the page kept under its
   * pending key, however old within `staleMs`, and hands it to the requests waiting for the render. The
   * same key, so the same viewer group: never another reader's page. False when there is none to send.
   */
  serveStale(req: IncomingMessage, res: ServerResponse, requestId: string, page: PendingPage): boolean {
    const entry = this.entries.get(page.key);
    const stale = entry && this.staleUsable(entry);
    if (!stale || res.headersSent) return false;
    page.settle(stale, true);
    dropRequestPolicy(res);
    this.send(req, res, requestId, stale, "stale");
    return true;
  }

  /**
   * Keeps a rendered page (or its route data, `text/x-script`, with the headers React Router's client looks
   * for) under the pending key and returns the entry to send. Brotli is fast here, at a miss; a background
   * job recompresses the kept page at its best (`upgrade`). `timeless`: the page said it shows no date or time,
   * so later requests for its path are keyed and rendered without a time zone. The entry is sent either way;
   * it is kept only when admitted (`admits`).
   */
  async store(
    page: PendingPage,
    html: Buffer,
    contentType = "text/html; charset=utf-8",
    passOn: Record<string, string> = {},
    timeless = false,
  ): Promise<Entry> {
    const quality = brotliQuality(html, false);
    const [br, gz, release] = await Promise.all([
      brotli(html, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
        },
      }),
      gzip(html, { level: 6 }),
      page.nextRelease,
    ]);
    const tag = crypto.createHash("sha256").update(html).digest("base64url").slice(0, 27);
    // Public pages may be kept by any cache, but only as long as it checks with us (ETag) each time;
    // a signed-in reader's page is the same for their group, never for a shared cache.
    const cacheControl =
      page.shared === "public" ? "public, max-age=0, must-revalidate" : "private, no-cache";
    const common = Object.entries({
      ...passOn,
      "Content-Type": contentType,
      "Cache-Control": cacheControl,
      Vary: VARY,
      ...keptPagePolicy(html, this.options.production),
      ...fixedSecurityHeaders(this.options),
    }).flat();
    const blank = () => ({}) as Record<Encoding, never>;
    const entry: Entry = {
      bodies: blank(),
      headers: blank(),
      notModified: blank(),
      etags: blank(),
      common,
      cacheControl,
      tag,
      brotliQuality: quality,
      revision: page.revision,
      renderedAt: page.startedAt,
      expiresAt: Math.min(page.startedAt + this.options.maxAgeMs, release ?? Number.POSITIVE_INFINITY),
      // The bodies, the key and the header strings (a CSP with its hashes is a few hundred bytes), and about
      // as much again for the objects holding them.
      bytes:
        html.length +
        br.length +
        gz.length +
        page.key.length +
        common.reduce((sum, part) => sum + part.length, 0) +
        ENTRY_OVERHEAD,
      url: page.key.slice(0, page.key.indexOf("\n")),
      pathname: page.pathname,
      language: languageOf(page.key),
    };
    setBody(entry, "identity", html, `"${tag}"`);
    setBody(entry, "br", br, `"${tag}-br${quality}"`);
    setBody(entry, "gzip", gz, `"${tag}-gzip"`);
    if (this.shareablePaths.size < MAX_SHAREABLE_PATHS) this.shareablePaths.add(page.pathname);
    if (timeless && this.timelessPages.size < MAX_SHAREABLE_PATHS) this.timelessPages.add(timelessMark(page));
    // A page first rendered in UTC (no `tz` cookie) that says it shows no time is the page every zone gets.
    const key = timeless && !page.timeless ? utcAsTimeless(page.key) : page.key;
    const group = page.key.slice(page.key.lastIndexOf("\n") + 1);
    if (this.keep(key, entry) && !this.options.oneReader?.(group)) {
      if (this.upgrades.length < MAX_UPGRADES) {
        this.upgrades.push(key);
        if (!this.upgrading) this.upgradeNext();
      }
    }
    page.settle(entry);
    return entry;
  }

  /**
   * Keeps `entry` under `key` when it may be: it replaces the same key's (unless that one was rendered later,
   * past a release), or it is admitted as a new variant of its URL (`roomForVariant`) and into the bytes
   * (`admits`). False when it is not kept.
   */
  private keep(key: string, entry: Entry): boolean {
    if (entry.bytes > this.options.maxBytes / 4) return false;
    const previous = this.entries.get(key);
    if (previous) {
      if (previous.renderedAt > entry.renderedAt) return false;
      this.remove(key, previous);
    } else {
      const frequency = this.sketch.frequency(key);
      if (!this.roomForVariant(entry.url, frequency) || !this.admits(entry.bytes, frequency)) return false;
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    const keys = this.variants.get(entry.url) ?? new Set<string>();
    this.variants.set(entry.url, keys.add(key));
    this.evict();
    return true;
  }

  private remove(key: string, entry: Entry) {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    const keys = this.variants.get(entry.url);
    keys?.delete(key);
    if (keys?.size === 0) this.variants.delete(entry.url);
  }

  /** An entry no request will be answered with again: past its age or release, or of an older revision. */
  private retired(entry: Entry): boolean {
    return (
      this.now() >= entry.expiresAt ||
      entry.revision !== this.options.revision(entry.pathname, entry.language)
    );
  }

  /**
   * Whether a new variant of `url` asked for `frequency` times lately may be kept: yes below the bound; at it,
   * in place of a retired variant, or of the least asked-for one when this one was asked for more often.
   */
  private roomForVariant(url: string, frequency: number): boolean {
    const keys = this.variants.get(url);
    if (!keys || keys.size < this.maxVariantsPerUrl) return true;
    let weakest: string | undefined;
    let weakestFrequency = Number.POSITIVE_INFINITY;
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry) continue;
      if (this.retired(entry)) {
        this.remove(key, entry);
        return true;
      }
      const kept = this.sketch.frequency(key);
      if (kept < weakestFrequency) {
        weakest = key;
        weakestFrequency = kept;
      }
    }
    const entry = weakest === undefined ? undefined : this.entries.get(weakest);
    if (!weakest || !entry || frequency <= weakestFrequency) return false;
    this.remove(weakest, entry);
    return true;
  }

  /**
   * TinyLFU's admission: a new page that needs room takes it from the least recently used pages only when it
   * was asked for more often than each of them lately (retired ones give way at once). A key asked for once
   * never pushes out a page asked for twice; a page of growing interest is kept at a later render.
   */
  private admits(bytes: number, frequency: number): boolean {
    let excess = this.bytes + bytes - this.options.maxBytes;
    for (const [key, entry] of this.entries) {
      if (excess <= 0) return true;
      if (!this.retired(entry) && this.sketch.frequency(key) >= frequency) return false;
      excess -= entry.bytes;
    }
    return excess <= 0 || this.entries.size === 0;
  }

  /** Least recently used first, down to the bound (after `admits` said these may go). */
  private evict() {
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(key, old);
    }
  }

  /**
   * The render of a page keyed without a time zone said it shows one after all (a chapter now waiting for its
   * release): its path is keyed by time zone again for the viewer group, and the request is given back its cookie, to be rendered
   * in the reader's zone and not kept.
   */
  showsTime(req: IncomingMessage, page: PendingPage) {
    this.timelessPages.delete(timelessMark(page));
    if (page.cookie === undefined) delete req.headers.cookie;
    else req.headers.cookie = page.cookie;
    (req as { [pendingSymbol]?: PendingPage })[pendingSymbol] = undefined;
    page.settle(undefined);
  }

  /**
   * Recompresses kept pages at the best brotli, one at a time (compression runs off the main thread, and
   * one at a time leaves the other core to the requests). The brotli ETag changes with the bytes: a browser
   * holding the fast copy gets the better one once (a 200 where a 304 would have been).
   */
  private upgradeNext() {
    const key = this.upgrades.shift();
    if (key === undefined) {
      this.upgrading = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.upgrading = true;
    const entry = this.entries.get(key);
    const html = entry?.bodies.identity;
    const quality = html && brotliQuality(html, true);
    if (!entry || !html || !quality || entry.brotliQuality >= quality) {
      setImmediate(() => this.upgradeNext());
      return;
    }
    brotli(html, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
      },
    })
      .then((br) => {
        // Gone (evicted, replaced) while compressing: nothing to upgrade.
        if (this.entries.get(key) !== entry) return;
        this.bytes += br.length - entry.bodies.br.length;
        entry.bytes += br.length - entry.bodies.br.length;
        entry.brotliQuality = quality;
        setBody(entry, "br", br, `"${entry.tag}-br${quality}"`);
      })
      .catch(() => {})
      .finally(() => this.upgradeNext());
  }

  /** Resolves once no recompression is waiting or running (tests, the benchmark's warm-up). */
  idle(): Promise<void> {
    if (!this.upgrading) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Sends a kept page: 304 when the browser has it, else the encoding the browser prefers. `X-Cache` says
   * how, as caches do: `hit`, kept before the request; `miss`, rendered for it (and kept); `stale`, served past
   * its revision because the database fails (caching headers unchanged).
   */
  send(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    entry: Entry,
    cache: "hit" | "miss" | "stale" = "hit",
  ): void {
    const encoding = preferredEncoding(req.headers["accept-encoding"]);
    const extra = ["X-Request-Id", requestId, "X-Cache", cache];
    if (req.headers["if-none-match"]?.includes(entry.etags[encoding])) {
      res.writeHead(304, entry.notModified[encoding].concat(extra));
      res.end();
      return;
    }
    res.writeHead(200, entry.headers[encoding].concat(extra));
    res.end(req.method === "HEAD" ? undefined : entry.bodies[encoding]);
  }
}
