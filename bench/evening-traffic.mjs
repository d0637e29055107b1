// The release evening's load model (ADR 70): what one signed-in reader's browser, and one visitor's, sends to
// the site over an evening, request by request, as the real pages send it (seen in Chromium's network log:
// the document, React Router's `/__manifest` and `.data` fetches, the chapter page's progress writes and
// its comments' route data), at a human pace. `evening-load.mjs` plays it for thousands of readers at once.
import fs from "node:fs";

/**
 * The chapter page's progress cadence (`SAVE_EVERY_MS` of the page's progress sender), read from its own
 * source so the model follows any change to it; a bench that cannot find it stops rather than guess.
 */
export function hookCadenceMs(source = fs.readFileSync("app/features/reader/progress-sender.ts", "utf8")) {
  const match = /^export const SAVE_EVERY_MS = ([\d_]+);$/m.exec(source);
  if (!match?.[1] || !/setInterval\(flush, every\)/.test(source))
    throw new Error("the progress sender's SAVE_EVERY_MS (the progress cadence) was not found");
  return Number(match[1].replaceAll("_", ""));
}

/** The pace of a human reader (ADR 70): reading speed, think times, how often each side trip happens. */
export const pace = {
  /** Words a minute, drawn evenly between these for each chapter read. */
  wordsPerMinute: [200, 300],
  /** Seconds between a page showing and the next click. */
  thinkSeconds: [8, 30],
  /** Seconds on the locked page before pressing "unlock with coins". */
  unlockThinkSeconds: [3, 10],
  /** Seconds away (another tab, the kettle) between one reading of the chapter and the next. */
  awaySeconds: [60, 240],
  /** The share of the chapter read when the comments come within a screen (the page then loads them). */
  commentsAt: 0.85,
  /** The chance a reader posts a comment at the end of the chapter. */
  commentChance: 0.1,
  /** After the chapter, each of these is opened with its chance, in this order. */
  sideTrips: [
    { page: "/toc", chance: 0.5 },
    { page: "/account", chance: 0.3 },
    { page: "/shop", chance: 0.15 },
    { page: "/fundraiser", chance: 0.15 },
    { page: "/coins", chance: 0.1 },
  ],
  /** Visitors on the site for every signed-in reader. */
  visitorsPerReader: 0.25,
};

/** How header links open: /toc in the page (`.data`, a client navigation), the others as a new document. */
const clientNavigations = new Set(["/toc"]);

/** The body of a progress write, as `sendProgress` (features/reader/account-progress.ts) makes it. */
export function progressBody(chapter, progress, view) {
  return JSON.stringify({ entries: [{ chapter, progress }], view });
}

/** The progress write's request: URL, method, headers and body, as the page's `fetch` sends them. */
export function progressRequest(chapter, progress, view) {
  return {
    path: "/reader/progress",
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: progressBody(chapter, progress, view),
  };
}

/**
 * The reader's record after `seconds` of reading a chapter `fraction` of the way through (`paragraphs` in
 * all), as the hook's `advance` and `readSecond` make it (features/reader/progress.ts): the scroll's fraction,
 * the paragraph in view, the furthest percentage (100 once completed at 98), the seconds read.
 */
export function progressAt(previous, seconds, fraction, paragraphs, now) {
  const percentage = Math.round(fraction * 100);
  const completed = previous.completed || percentage >= 98;
  return {
    scrollPosition: fraction,
    paragraph: Math.min(paragraphs, Math.floor(fraction * paragraphs)),
    completionPercentage: completed ? 100 : Math.max(previous.completionPercentage, percentage),
    readingTime: seconds,
    completed,
    bookmarks: previous.bookmarks,
    lastReadAt: now.toISOString(),
  };
}

/**
 * The chapter page's empty record, `emptyProgress` of app/features/reader/progress.ts written again: the bench
 * runs under plain Node 20, which cannot import TypeScript (nor the app's `~/` paths). evening-traffic.test.ts
 * checks that the two stay the same.
 */
export const emptyProgress = () => ({
  scrollPosition: 0,
  paragraph: 0,
  completionPercentage: 0,
  readingTime: 0,
  completed: false,
  bookmarks: [],
  lastReadAt: new Date(0).toISOString(),
});

/**
 * The paths a page's `/__manifest` request names: React Router's route discovery takes every link and form
 * marked `data-discover` on the page, adds their ancestors and sorts them (useFogOFWarDiscovery).
 */
export function discoveredPaths(html) {
  const paths = new Set();
  for (const [tag] of html.matchAll(/<(?:a|form)\b[^>]*\bdata-discover[^>]*>/g)) {
    const target = /\b(?:href|action)="(\/[^"?#]*)/.exec(tag)?.[1];
    if (!target) continue;
    const segments = target.split("/").filter(Boolean);
    for (let i = 1; i <= segments.length; i++) paths.add(`/${segments.slice(0, i).join("/")}`);
  }
  return [...paths].sort();
}

/** `/__manifest` as React Router asks for it after a page shows (lazy route discovery of its links). */
const manifest = (site, paths) => ({
  label: "manifest",
  path: `/__manifest?paths=${encodeURIComponent(paths.join(","))}&version=${site.version}`,
});

const between = ([low, high], random) => low + (high - low) * random();

/** The request that unlocks a chapter with coins, as the page's unlock form sends it (a fetcher's `.data`). */
export const unlockRequest = (number) => ({
  label: "unlock",
  path: `/chapter/${number}.data`,
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
  body: "intent=unlock",
});

/**
 * Opening the chapter page: the document, the manifest of its links, the next chapter's prefetch; a reader
 * without the chapter presses "unlock with coins" (then the route's data again), and the page asks for the
 * reader's place. A reader whose coins do not reach the price (the page offers coins to buy instead: every
 * ninth generated reader spent theirs on earlier chapters, ADR 101) looks at the coin packs and does not read
 * it this round. Whether the chapter is open to them.
 */
async function openChapter({ http, sleep, random, site, chapter, signedIn }) {
  const page = await http({ label: "chapter", path: `/chapter/${chapter.number}` });
  await http(manifest(site, chapter.manifestPaths));
  if (chapter.prefetch)
    await http({ label: "prefetch", path: chapter.prefetch, headers: { "Sec-Purpose": "prefetch" } });
  if (signedIn && page.text.includes('name="intent" value="unlock"')) {
    // The unlock form, after hydration: the action's `.data`, then the route's data again (its revalidation).
    await sleep(between(pace.unlockThinkSeconds, random) * 1000);
    await http(unlockRequest(chapter.number));
    await http({ label: "chapter.data", path: `/chapter/${chapter.number}.data` });
  } else if (signedIn && page.text.includes('name="intent" value="buy-unlock"')) {
    await sleep(between(pace.unlockThinkSeconds, random) * 1000);
    await http({ label: "/coins", path: "/coins" });
    return false;
  }
  if (signedIn) await http({ label: "progress-get", path: `/reader/progress?chapter=${chapter.number}` });
  return true;
}

/**
 * What the page sends around the chapter's reading, for a reader (`cookie`) or a visitor (no cookie). `http`
 * sends one request ({ label, path, method?, headers?, body? }) and resolves to { status, text }; `sleep`
 * waits so many ms; `random` is the run's generator; `until()` the time the evening ends (ms). `site`: the chapter, its paragraphs and words, the
 * manifest version and the paths each page's links ask the manifest for, the next chapter's data the
 * chapter page prefetches (all read from the server before the run: release-evening.mjs).
 */
export async function readChapter({
  http,
  sleep,
  random,
  site,
  chapter,
  cadenceMs,
  signedIn,
  until,
  from = 0,
  open = true,
}) {
  // A reader found reading when the run starts has the page open already: it only goes on sending.
  if (open && !(await openChapter({ http, sleep, random, site, chapter, signedIn }))) return;
  const readMs = (chapter.words / between(pace.wordsPerMinute, random)) * 60_000;
  let progress = emptyProgress();
  let view;
  let commentsLoaded = false;
  // A reader coming back to their place `from` of the way through has read that much before.
  const started = Date.now() - from * readMs;
  const write = async () => {
    const elapsed = Date.now() - started;
    const fraction = Math.min(1, elapsed / readMs);
    progress = progressAt(progress, Math.floor(elapsed / 1000), fraction, chapter.paragraphs, new Date());
    const answer = await http({ label: "progress", ...progressRequest(chapter.number, progress, view) });
    // A visitor's page sends back the view the last answer gave (visitor-views.server.ts).
    if (!signedIn && answer.status === 200) view = JSON.parse(answer.text).view;
    if (!commentsLoaded && fraction >= pace.commentsAt) {
      commentsLoaded = true;
      await http(manifest(site, chapter.commentsManifestPaths));
      await http({
        label: "comments",
        path: `/chapter/${chapter.number}/comments.data?order=newest&_routes=routes%2Fchapter-comments`,
      });
    }
  };
  // One write each cadence while reading (each second changes the record), then the one on leaving.
  while (Date.now() - started < readMs && Date.now() < until()) {
    await sleep(cadenceMs);
    await write();
  }
  if (signedIn && random() < pace.commentChance) {
    await sleep(between(pace.thinkSeconds, random) * 1000);
    await http({
      label: "comment-post",
      path: `/chapter/${chapter.number}/comments.data`,
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
      body: new URLSearchParams({
        intent: "post",
        body: `The bells again! (bench reader, ${Date.now()})`,
      }).toString(),
    });
  }
  await write();
}

/**
 * Where in its round a reader or visitor is when the run starts: the evening's steady state, so that a run of
 * a minute or two measures the evening's mix, not a herd of first page loads (the release minute has its own
 * run: release.lua). Reading (at a random place of the chapter, the page open: it goes on sending its
 * progress), on its side trips, or away (a random part of it left, then the chapter opened again).
 */
export const startOfRound = { reading: 0.6, sideTrips: 0.1 };

/** Where one reader or visitor starts (`from`: reading, that far through; `skipChapter`; `away` ms). */
export function startOfEvening(random) {
  const at = random();
  if (at < startOfRound.reading) return { from: random() };
  if (at < startOfRound.reading + startOfRound.sideTrips) return { skipChapter: true };
  return { away: random() * between(pace.awaySeconds, random) * 1000 };
}

/**
 * An evening of rounds, a reader's or a visitor's, from `start` (startOfEvening): `chapter` read, what else
 * they do in a round (`sideTrips`), time away, and again. A reader found reading has the chapter open, and,
 * signed in, unlocked: the generator unlocks it for them before the run (`unlockRequest`).
 */
async function evening(run, start, { chapter, signedIn, sideTrips }) {
  const { http, sleep, random, site, cadenceMs, until } = run;
  if (start.away) await sleep(start.away);
  let round = start;
  while (Date.now() < until()) {
    if (!round.skipChapter) {
      const open = round.from === undefined;
      await readChapter({
        http,
        sleep,
        random,
        site,
        chapter,
        cadenceMs,
        signedIn,
        until,
        from: round.from,
        open,
      });
    }
    round = {};
    await sideTrips(run);
    await sleep(between(pace.awaySeconds, random) * 1000);
  }
}

/**
 * What a page asks for once it runs, for a signed-in reader: the table of contents is kept for every reader
 * with the same access (ADR 101), so it fetches the reader's marks and release e-mail choice.
 */
export const readerPageFetches = { "/toc": ["/reader/progress", "/notify/state"] };

/** A signed-in reader's side trips in a round: each page of `pace.sideTrips`, by its chance. */
async function readerSideTrips({ http, sleep, random, site }) {
  for (const { page, chance } of pace.sideTrips) {
    if (random() >= chance) continue;
    await sleep(between(pace.thinkSeconds, random) * 1000);
    await http({ label: page, path: clientNavigations.has(page) ? `${page}.data` : page });
    await http(manifest(site, site.manifestPaths[page]));
    for (const path of readerPageFetches[page] ?? []) await http({ label: path, path });
  }
}

/** A visitor's side trip in a round: the table of contents. */
async function visitorSideTrips({ http, sleep, random, site }) {
  await sleep(between(pace.thinkSeconds, random) * 1000);
  await http({ label: "/toc", path: "/toc.data" });
  await http(manifest(site, site.manifestPaths["/toc"]));
}

/** A signed-in reader's evening: the newest chapter, a few side trips, time away, and again. */
export const readerEvening = (run, start) =>
  evening(run, start, { chapter: run.site.newest, signedIn: true, sideTrips: readerSideTrips });

/** A visitor's evening: the story's first chapter (free), the table of contents, time away, and again. */
export const visitorEvening = (run, start) =>
  evening(run, start, { chapter: run.site.first, signedIn: false, sideTrips: visitorSideTrips });
