import fs from "node:fs";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { OFFLINE_HEADER, offlineHeaders } from "./offline";

/** The worker's rules, run from the file the browser gets (public/sw.js): its top-level functions. */
type Rules = {
  offlineMark(value: string | null): { keep: boolean; next?: number };
  chapterKey(url: string, origin: string): string | undefined;
  nextChapterKey(key: string, next: number): string;
  assetsOf(html: string): string[];
  mayKeep(response: { status: number; type: string; headers: Headers }): boolean;
};
const context = vm.createContext({ URL });
vm.runInContext(fs.readFileSync("public/sw.js", "utf8"), context);
const rules = context as unknown as Rules;
const origin = "https://covenant.example";

describe("what the offline worker keeps (ADR 96)", () => {
  it("keeps only what the chapter route marked, and reads the next chapter from the mark", () => {
    expect(rules.offlineMark(offlineHeaders(true, 3)[OFFLINE_HEADER] ?? null)).toEqual({
      keep: true,
      next: 3,
    });
    expect(rules.offlineMark(offlineHeaders(true, undefined)[OFFLINE_HEADER] ?? null)).toEqual({
      keep: true,
      next: undefined,
    });
    // A locked chapter or a preview: no mark, never kept.
    expect(offlineHeaders(false, 3)).toEqual({});
    expect(rules.offlineMark(null)).toEqual({ keep: false });
    expect(rules.offlineMark("")).toEqual({ keep: false });
    expect(rules.offlineMark("no, keep")).toEqual({ keep: false });
    expect(rules.offlineMark("keep, next=../admin")).toEqual({ keep: true, next: undefined });
  });

  it("keeps a whole 200 of this origin with the mark, nothing else", () => {
    const response = (status: number, type: string, mark?: string) => ({
      status,
      type,
      headers: new Headers(mark ? { [OFFLINE_HEADER]: mark } : {}),
    });
    expect(rules.mayKeep(response(200, "basic", "keep"))).toBe(true);
    expect(rules.mayKeep(response(200, "basic"))).toBe(false);
    expect(rules.mayKeep(response(404, "basic", "keep"))).toBe(false);
    expect(rules.mayKeep(response(206, "basic", "keep"))).toBe(false);
    expect(rules.mayKeep(response(200, "opaque", "keep"))).toBe(false);
    expect(rules.mayKeep(response(0, "opaqueredirect", "keep"))).toBe(false);
  });

  it("handles chapter pages of this origin only, in any language, without a query", () => {
    expect(rules.chapterKey(`${origin}/chapter/2`, origin)).toBe(`${origin}/chapter/2`);
    expect(rules.chapterKey(`${origin}/es/chapter/12`, origin)).toBe(`${origin}/es/chapter/12`);
    expect(rules.chapterKey(`${origin}/chapter/2#p-4`, origin)).toBe(`${origin}/chapter/2`);
    for (const url of [
      `${origin}/chapter/2?as=visitor`,
      `${origin}/chapter/2.data`,
      `${origin}/chapter/2/comments`,
      `${origin}/toc`,
      `${origin}/account`,
      `https://elsewhere.example/chapter/2`,
      `${origin}/chapter/1234567`,
    ])
      expect(rules.chapterKey(url, origin), url).toBeUndefined();
    expect(rules.nextChapterKey(`${origin}/fr/chapter/2`, 3)).toBe(`${origin}/fr/chapter/3`);
    expect(rules.nextChapterKey(`${origin}/chapter/2`, 3)).toBe(`${origin}/chapter/3`);
  });

  it("names the hashed build files a page needs, once each, and no other address", () => {
    const html = `<link rel="stylesheet" href="/assets/app-Ab1_c.css"><script type="module" src="/assets/boot-X9.js"></script>
      <script>{"chunks":["/assets/entry.client-Q1.js","/assets/app-Ab1_c.css"]}</script>
      <a href="/media/cover.jpg">x</a><a href="/assets/../admin">y</a>`;
    expect(rules.assetsOf(html)).toEqual([
      "/assets/app-Ab1_c.css",
      "/assets/boot-X9.js",
      "/assets/entry.client-Q1.js",
    ]);
  });

  it("fuzz: any header value or address gives an answer, never an error", () => {
    const alphabet = "keep,next=0123456789 /.?#%:chapteresfr\u0000\u00e9";
    for (let run = 0; run < 2000; run++) {
      let text = "";
      const length = Math.floor(Math.random() * 40);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(Math.random() * alphabet.length)];
      const mark = rules.offlineMark(text);
      expect(typeof mark.keep).toBe("boolean");
      if (mark.next !== undefined) expect(Number.isInteger(mark.next)).toBe(true);
      const key = rules.chapterKey(`${origin}/${text}`, origin);
      if (key !== undefined) expect(key.startsWith(`${origin}/`)).toBe(true);
      for (const asset of rules.assetsOf(text)) expect(asset).toMatch(/^\/assets\/[\w.-]+$/);
    }
  });
});
