/**
 * The offline worker (ADR 96): keeps the chapter pages a reader opened, and the next one they may open,
 * readable without a network. Plain JavaScript, served as it is (no build), in no page's bundle.
 *
 * - Navigations go to the network first, so nothing changes while online. A chapter page the server marked
 *   `X-Offline: keep` (a chapter this reader may read: never a locked page, a preview or another page) is kept
 *   with the hashed /assets/ files its HTML names; a page of that address without the mark (the chapter is
 *   locked now) removes the kept copy. Offline, a kept page answers its navigation.
 * - On a first visit the page came before the worker: once active, it asks for the open chapter pages again.
 * - Once a page is kept, the next chapter (the mark's `next=N`) is asked for once in the background, marked as
 *   `Purpose: prefetch` (the server unlocks nothing on it), and kept only if the server marked it too.
 * - /assets/ files are content-hashed and public: answered from the cache when there, kept when fetched.
 * - Signing out deletes every cache (app/features/reader/storage.ts); a new version deletes the old ones.
 *
 * The rules are plain functions at the top, tested in app/lib/offline-worker.test.ts.
 */

const CACHE = "offline-v1";
const CHAPTER_PATH = /^(\/[a-z]{2})?\/chapter\/(\d{1,6})$/;

/** Whether a response's `X-Offline` value lets it be kept, and the next chapter to fetch ahead (or undefined). */
function offlineMark(value) {
  const parts = (value || "").split(",").map((part) => part.trim());
  if (parts[0] !== "keep") return { keep: false };
  const next = parts.find((part) => /^next=\d{1,6}$/.test(part));
  return { keep: true, next: next ? Number(next.slice(5)) : undefined };
}

/** A chapter page's address (this origin, GET), without query or hash, or undefined for any other request. */
function chapterKey(url, origin) {
  const parsed = new URL(url);
  if (parsed.origin !== origin || !CHAPTER_PATH.test(parsed.pathname) || parsed.search) return undefined;
  return parsed.origin + parsed.pathname;
}

/** The address of chapter `next` in the language of `key`'s address. */
function nextChapterKey(key, next) {
  const parsed = new URL(key);
  const language = CHAPTER_PATH.exec(parsed.pathname)?.[1] ?? "";
  return `${parsed.origin}${language}/chapter/${next}`;
}

/** The hashed build files a page names (its scripts, styles, modules in the hand-off), at most 200. */
function assetsOf(html) {
  return [...new Set(html.match(/\/assets\/[\w.-]{1,200}\.(?:js|css|woff2)/g) ?? [])].slice(0, 200);
}

/** Whether a response may be kept: a whole 200 with the server's mark. */
function mayKeep(response) {
  return (
    response.status === 200 &&
    response.type === "basic" &&
    offlineMark(response.headers.get("X-Offline")).keep
  );
}

if (typeof self !== "undefined" && typeof self.skipWaiting === "function") {
  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) =>
    event.waitUntil(
      caches
        .keys()
        .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
        .then(() => self.clients.claim())
        .then(() => keepOpenChapters()),
    ),
  );

  /** Keeps a marked page and its files; forgets the address otherwise. Returns the mark. */
  const keep = async (key, response) => {
    const cache = await caches.open(CACHE);
    if (!mayKeep(response)) {
      await cache.delete(key);
      return { keep: false };
    }
    const html = await response.clone().text();
    await cache.put(key, response);
    const missing = [];
    for (const asset of assetsOf(html)) if (!(await cache.match(asset))) missing.push(asset);
    await Promise.all(
      missing.map((asset) =>
        fetch(asset).then(
          (answer) => (answer.ok ? cache.put(asset, answer) : undefined),
          () => undefined,
        ),
      ),
    );
    return offlineMark(response.headers.get("X-Offline"));
  };

  /**
   * A chapter page the reader did not navigate to now, kept if marked. `Purpose: prefetch` (a page cannot set
   * `Sec-Purpose`): the server unlocks nothing on it (features/reader/arrival.server.ts).
   */
  const askFor = async (key) => {
    const response = await fetch(key, { headers: { Purpose: "prefetch" } }).catch(() => undefined);
    return response ? keep(key, response) : { keep: false };
  };

  /** The next chapter, once, if not kept already: the server marks it only if this reader may read it. */
  const fetchAhead = async (key, next) => {
    const nextKey = nextChapterKey(key, next);
    if (!(await caches.match(nextKey))) await askFor(nextKey);
  };

  /** On a first visit the page came before the worker: the chapters open now are asked for again, once. */
  const keepOpenChapters = async () => {
    const windows = await self.clients.matchAll({ type: "window" });
    const keys = new Set(
      windows.map((client) => chapterKey(client.url, self.location.origin)).filter(Boolean),
    );
    for (const key of keys) {
      const mark = await askFor(key);
      if (mark.next) await fetchAhead(key, mark.next);
    }
  };

  const navigate = async (event, key) => {
    let response;
    try {
      response = await fetch(event.request);
    } catch {
      const kept = await caches.match(key);
      if (kept) return kept;
      throw new TypeError("offline");
    }
    event.waitUntil(
      keep(key, response.clone())
        .then((mark) => (mark.next ? fetchAhead(key, mark.next) : undefined))
        .catch(() => undefined),
    );
    return response;
  };

  const asset = async (request) => {
    const kept = await caches.match(request);
    if (kept) return kept;
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      caches.open(CACHE).then(
        (cache) => cache.put(request, copy),
        () => undefined,
      );
    }
    return response;
  };

  self.addEventListener("fetch", (event) => {
    const { request } = event;
    if (request.method !== "GET") return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin) return;
    if (url.pathname.startsWith("/assets/")) return event.respondWith(asset(request));
    const key = request.mode === "navigate" ? chapterKey(request.url, self.location.origin) : undefined;
    if (key) event.respondWith(navigate(event, key));
  });
}
