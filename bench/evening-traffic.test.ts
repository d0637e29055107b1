import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sendProgress } from "~/features/reader/account-progress";
import { advance, emptyProgress, parseProgress, readSecond } from "~/features/reader/progress";
import { SAVE_EVERY_MS } from "../app/features/reader/progress-sender";
import {
  emptyProgress as benchEmptyProgress,
  discoveredPaths,
  hookCadenceMs,
  progressAt,
  progressRequest,
  readerEvening,
} from "./evening-traffic.mjs";

/** What the chapter page's `sendProgress` hands to `fetch`, with a server answering `answer`. */
async function pageSends(chapter: number, progress: ReturnType<typeof emptyProgress>, answer: object) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json(answer));
  vi.stubGlobal("fetch", fetch);
  vi.stubGlobal("document", { visibilityState: "visible" });
  vi.stubGlobal("navigator", {});
  expect(await sendProgress(chapter, progress)).toBe(true);
  // The answer is read after `sendProgress` resolves (the view kept for the next write): one turn of the loop.
  await new Promise(setImmediate);
  const [url, init] = fetch.mock.calls[0] ?? [];
  return { path: url, method: init?.method, headers: init?.headers, body: init?.body };
}

describe("the release evening's model sends what the chapter page sends", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("a progress write: the same URL, method, headers and body as the page's, a visitor's view included", async () => {
    const now = new Date("2026-11-27T20:00:00Z");
    const progress = progressAt(emptyProgress(), 42, 0.5, 40, now);
    expect(await pageSends(9, progress, { saved: 1, view: "signed-view" })).toEqual(
      progressRequest(9, progress),
    );
    // The page sends back the view the last answer gave, as the model's visitors do.
    expect(await pageSends(1, progress, { saved: 1 })).toEqual(progressRequest(1, progress, "signed-view"));
  });

  it("starts from the page's empty record (written again in the bench, which cannot import TypeScript)", () => {
    expect(benchEmptyProgress()).toEqual(emptyProgress());
  });

  it("its record is the one the hook makes from the same seconds and scroll (readSecond, advance)", () => {
    const now = new Date("2026-11-27T20:00:00Z");
    let hooks = emptyProgress();
    let model = emptyProgress();
    for (const [seconds, fraction] of [
      [10, 0.1],
      [60, 0.5],
      [100, 0.4],
      [150, 0.979],
      [160, 0.98],
      [170, 0.6],
    ] as const) {
      while (hooks.readingTime < seconds) hooks = readSecond(hooks, now);
      model = progressAt(model, seconds, fraction, 40, now);
      hooks = advance(hooks, fraction, model.paragraph, now);
      expect(model).toEqual(hooks);
      expect(parseProgress(model)).toEqual(model);
    }
    expect(model.completed).toBe(true);
  });

  it("its cadence is the page's SAVE_EVERY_MS, read from the progress sender, and follows a change of it", () => {
    const sender = fs.readFileSync("app/features/reader/progress-sender.ts", "utf8");
    expect(hookCadenceMs()).toBe(SAVE_EVERY_MS);
    const changed = sender.replace(/const SAVE_EVERY_MS = [\d_]+;/, "const SAVE_EVERY_MS = 30_000;");
    expect(hookCadenceMs(changed)).toBe(30_000);
    // Renamed or no longer the timer's: the bench stops rather than guess.
    expect(() => hookCadenceMs(sender.replaceAll("SAVE_EVERY_MS", "SEND_EVERY_MS"))).toThrow(/SAVE_EVERY_MS/);
    expect(() =>
      hookCadenceMs(sender.replace("setInterval(flush, every)", "setTimeout(flush, every)")),
    ).toThrow(/SAVE_EVERY_MS/);
  });

  it("asks the manifest for the paths React Router's discovery asks for: marked links and forms, their ancestors, sorted", () => {
    const html = `<a href="/toc" data-discover="true">Contents</a><a href="/wiki">Wiki</a>
      <form data-discover="true" action="/chapter/9" method="post"></form>
      <a class="x" data-discover="true" href="/shop/product/1?from=home#top">A product</a>
      <a data-discover="true" href="https://example.com/out">Out</a>`;
    expect(discoveredPaths(html)).toEqual([
      "/chapter",
      "/chapter/9",
      "/shop",
      "/shop/product",
      "/shop/product/1",
      "/toc",
    ]);
  });

  it("starts in the evening's steady state: a reader found reading goes on sending, one found away opens the page", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-27T20:00:00Z") });
    const chapter = {
      number: 9,
      words: 100_000,
      paragraphs: 40,
      manifestPaths: ["/chapter/9"],
      commentsManifestPaths: [],
    };
    const sentBy = async (start: object, random = () => 0.99) => {
      const sent: string[] = [];
      const end = Date.now() + 60_000;
      const run = {
        http: async (request: { label: string }) => {
          sent.push(request.label);
          return { status: 200, text: 'name="intent" value="unlock"' };
        },
        sleep: async (ms: number) => {
          vi.setSystemTime(Date.now() + Math.min(ms, Math.max(0, end - Date.now())));
        },
        random,
        // Each page's manifest asks for the page alone.
        site: { version: "v", newest: chapter, manifestPaths: new Proxy({}, { get: (_, page) => [page] }) },
        cadenceMs: 15_000,
        until: () => end,
      };
      await readerEvening(run, start);
      return sent;
    };
    try {
      // Reading at the start: only its progress, each cadence, and the write on leaving.
      expect(await sentBy({ from: 0.5 })).toEqual([
        "progress",
        "progress",
        "progress",
        "progress",
        "progress",
      ]);
      // Away at the start: back, it opens the chapter, unlocks it, asks for its place, then reads.
      expect((await sentBy({ away: 1_000 })).slice(0, 6)).toEqual([
        "chapter",
        "manifest",
        "unlock",
        "chapter.data",
        "progress-get",
        "progress",
      ]);
      // Every side trip taken: the table of contents, in the page, then the reader's marks and e-mail choice
      // it fetches (ADR 101).
      const trips = await sentBy({ from: 0.999 }, () => 0);
      const toc = trips.indexOf("/toc");
      expect(toc).toBeGreaterThan(-1);
      expect(trips.slice(toc, toc + 4)).toEqual(["/toc", "manifest", "/reader/progress", "/notify/state"]);
    } finally {
      vi.useRealTimers();
    }
  });
});
