// Pages rendered for each signed-in reader (ADR 71): every page a signed-in reader gets rendered on
// their request rather than served from a copy kept for many readers (the page cache's viewer, ADR 53), loaded
// as many distinct readers' first visits: each request a different generated reader's session (readers.lua),
// so a reader's own kept pages (/account, /settings...) are measured as the first visit renders them, not as
// one reader's kept copy. For each page: wrk's figures, the replies that were not 2xx/3xx (a 503 of an
// admission gate is one: an error, never a fast answer), and the server's CPU per request (its /proc CPU time
// over the run ÷ the requests). Three pages need one reader's state and are asked as one: /login/verify (an
// author's sign-in from a new device, waiting for the e-mailed code), /admin/inquiries and /admin/qa (the author).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { args, duration, measureBaseline, postForm, signedIn, startApp, waitForQuiet, wrk } from "./lib.mjs";

const script = fileURLToPath(new URL("./readers.lua", import.meta.url));
/** Readers measured per page (each request one of them), and after them those the warm-up renders for. */
const MEASURED = 4000;
const WARM_UP = 1000;

/** Each page a signed-in reader has rendered, by the run name its figures are kept under. */
export const READER_PAGES = {
  fundraiserReadersBr: "/fundraiser",
  pollsReadersBr: "/polls",
  shopReadersBr: "/shop",
  productReadersBr: "/shop/product/1",
  coinsReadersBr: "/coins",
  cartReadersBr: "/cart",
  checkoutReadersBr: "/checkout",
  accountReadersBr: "/account",
  betaReadersBr: "/beta",
  achievementsReadersBr: "/achievements",
  settingsReadersBr: "/settings",
  securityReadersBr: "/settings/security",
  commentsReadersBr: "/chapter/1/comments",
  commentsDataReadersBr: "/chapter/1/comments.data",
  tocReadersBr: "/toc",
  volumeUnlockReadersBr: "/unlock/volume/2",
  chapterReadersBr: "/chapter/1",
  welcomeReadersBr: "/welcome",
  confirmEmailReadersBr: "/confirm-email",
  qaReadersBr: "/qa",
  // A chapter in a translation (ADR 86) and the Spanish table of contents, rendered as the original's are.
  chapterEsReadersBr: "/es/chapter/1",
  tocEsReadersBr: "/es/toc",
  // The search by title (ADR 92) is never a kept page: each reader types their own (SEARCHES below).
  tocSearchReadersBr: "/toc?q=",
};

/** What readers type into the table of contents' search: words of the titles, parts of words, misses. */
const SEARCHES = [
  ..."abcdefghijklmnopqrstuvwxyz",
  ...["the", "gate", "blood", "night", "bell", "ash", "moon", "vow", "warden", "east", "court", "fate"],
  ...["chapter", "volume", "ember", "oath", "crimson", "covenant", "nothing here", "zz", "Ø", "夜"],
].map((term) => encodeURIComponent(term));

/** Pages asked as one reader (their state is one row), by run name. */
const ONE_READER_PAGES = {
  loginVerifyBr: "/login/verify",
  adminInquiriesBr: "/admin/inquiries",
  adminQaBr: "/admin/qa",
  // The translation editor (ADR 93): chapter 2's French beside its original, with its history.
  adminTranslationBr: "/admin/chapters/2/translations/fr",
  // The announcements (ADR 95) and the list of everything else to translate (ADR 98).
  adminAnnouncementsBr: "/admin/announcements",
  adminTranslationsBr: "/admin/translations",
};

const br = { "Accept-Encoding": "br" };

/** The author's session, and a sign-in of theirs from a new device waiting at /login/verify (its cookie). */
async function authorCookies(app) {
  const author = await signedIn(app.base);
  execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "grant-author", author.email], {
    env: { ...process.env, DATA_DIR: app.dataDir, LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
  const login = await postForm(app.base, "/login", { email: author.email, password: "bench secret" });
  const challenge = login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .find((cookie) => !cookie.startsWith("session="));
  if (!challenge)
    throw new Error(`the author's new-device sign-in asked for no second step (${login.status})`);
  return { author: author.cookie, challenge };
}

/** One load run of `pathname`, with the server's CPU time per request over it. */
function loadRun(app, pathname, headers, env, seconds = duration) {
  const before = app.cpuMs();
  const run = wrk(`${app.base}${pathname}`, headers, seconds, env && script, env);
  const requests = Math.round(run.rps * seconds);
  return {
    ...run,
    requests,
    cpuMsPerRequest: requests ? +((app.cpuMs() - before) / requests).toFixed(2) : null,
  };
}

/**
 * Every reader's first contact with the server, before any page is measured: their session read (two
 * statements) and kept, as for a reader who came earlier in the evening. Each page is then a first visit to
 * that page, not the server's first sight of 4,000 readers at once, which this run measures on its own
 * (`sessionsFirstSeenBr`, no budget): a cheap request of theirs (one chapter's progress) from every reader,
 * the measured ones and the warm-up's, asked until each was asked once.
 */
function firstContacts(app) {
  const all = { BENCH_COOKIES: app.cookies, BENCH_FIRST: "0", BENCH_COUNT: String(MEASURED + WARM_UP) };
  const path = "/reader/progress?chapter=1";
  let figures;
  let requests = 0;
  for (let round = 0; round < 5 && requests < MEASURED + WARM_UP; round++) {
    figures = loadRun(app, path, br, all, 3);
    requests += figures.requests;
  }
  return { ...figures, page: path, requests, distinctReaders: Math.min(requests, MEASURED + WARM_UP) };
}

/**
 * The status a page answers a reader with (a redirect would measure another page), on a fresh connection:
 * after a load run, the server may have closed a kept-alive socket.
 */
function statusOf(app, pathname, cookie) {
  return new Promise((resolve, reject) => {
    http
      .get(`${app.base}${pathname}`, { agent: false, headers: { cookie } }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode));
      })
      .on("error", reject);
  });
}

export default async function measure(results) {
  const app = await startApp({ name: "renders", readers: MEASURED + WARM_UP });
  try {
    const cookies = fs.readFileSync(app.cookies, "utf8").split("\n").filter(Boolean);
    const measured = { BENCH_COOKIES: app.cookies, BENCH_FIRST: "0", BENCH_COUNT: String(MEASURED) };
    const warmUp = {
      BENCH_COOKIES: app.cookies,
      BENCH_FIRST: String(MEASURED),
      BENCH_COUNT: String(WARM_UP),
    };
    results.runs.sessionsFirstSeenBr = firstContacts(app);
    const only = args.pages ? String(args.pages).split(",") : undefined;
    const searches = `${app.dataDir}/searches.txt`;
    fs.writeFileSync(searches, `${SEARCHES.join("\n")}\n`);
    for (const [run, pathname] of Object.entries(READER_PAGES)) {
      if (only && !only.includes(pathname)) continue;
      // Warmed up on readers the measured run never asks as, and every reply of the warm-up sent before the
      // run starts (a slow page's queue would otherwise fill the run: none of its requests finished in it).
      const queried = pathname.endsWith("=") ? { BENCH_QUERIES: searches } : {};
      wrk(`${app.base}${pathname}`, br, 2, script, { ...warmUp, ...queried });
      await waitForQuiet(app);
      const figures = loadRun(app, pathname, br, { ...measured, ...queried });
      results.runs[run] = {
        ...figures,
        page: pathname,
        status: await statusOf(app, pathname, cookies[MEASURED + WARM_UP - 1]),
        // More requests than readers: the later ones were a reader's second visit.
        distinctReaders: Math.min(figures.requests, MEASURED),
      };
    }
    const { author, challenge } = await authorCookies(app);
    for (const [run, pathname] of Object.entries(ONE_READER_PAGES)) {
      if (only && !only.includes(pathname)) continue;
      const cookie = pathname === "/login/verify" ? challenge : author;
      wrk(`${app.base}${pathname}`, { ...br, Cookie: cookie }, 2);
      await waitForQuiet(app);
      results.runs[run] = {
        ...loadRun(app, pathname, { ...br, Cookie: cookie }),
        page: pathname,
        status: await statusOf(app, pathname, cookie),
        distinctReaders: 1,
      };
    }
    if (!results.runs.baselineBr) results.runs.baselineBr = await measureBaseline(app);
    const baseline = results.runs.baselineBr.rps;
    for (const run of [...Object.keys(READER_PAGES), ...Object.keys(ONE_READER_PAGES)])
      if (results.runs[run]) results.runs[run].ofBaseline = +(results.runs[run].rps / baseline).toFixed(4);
  } finally {
    await app.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = { runs: {} };
  await measure(results);
  console.table(
    Object.fromEntries(
      Object.entries(results.runs).map(([run, r]) => [
        run,
        {
          page: r.page,
          status: r.status,
          rps: r.rps,
          ofBaseline: r.ofBaseline,
          p50: r.p50,
          p99: r.p99,
          cpuMs: r.cpuMsPerRequest,
          errors: r.non2xx + r.timeouts,
          requests: r.requests,
        },
      ]),
    ),
  );
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/renders.json", `${JSON.stringify(results, null, 2)}\n`);
}
