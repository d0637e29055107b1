import { createHash } from "node:crypto";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CHAPTER_RENDERER } from "./markdown.server";

/**
 * Chapters keep their text rendered for readers (ADR 54, S60), trusted by `CHAPTER_RENDERER`: a rendering
 * made by an older pipeline or sanitiser would be served as it is. This test pins what the rendering depends
 * on, the pipeline's source and its packages' versions, to the renderer's version, so a change to either fails
 * here until someone decides: raise `CHAPTER_RENDERER` when the HTML may change (a sanitiser fix must), then
 * write the new fingerprint below.
 */
const PACKAGES = [
  "unified",
  "remark-parse",
  "remark-gfm",
  "remark-rehype",
  "rehype-raw",
  "rehype-parse",
  "rehype-sanitize",
  "hast-util-sanitize",
  "rehype-stringify",
];

function fingerprint(): string {
  const hash = createHash("sha256").update(fs.readFileSync("app/features/content/markdown.server.ts"));
  for (const name of PACKAGES) {
    const manifest = JSON.parse(fs.readFileSync(`node_modules/${name}/package.json`, "utf8")) as {
      version: string;
    };
    hash.update(`${name}@${manifest.version}`);
  }
  return hash.digest("base64url").slice(0, 16);
}

describe("the chapter renderer's version", () => {
  it("is raised (or kept, by a decision) whenever the pipeline or its packages change", () => {
    expect({ renderer: CHAPTER_RENDERER, fingerprint: fingerprint() }).toEqual({
      renderer: 2,
      // 2: a block's number is its place (id="p-N"), `data-p` only beside an author's id; kept at 2 when the
      // renderings' memos became `boundedMemo` (the same HTML).
      fingerprint: "6sqNK9mlsdMVzLWG",
    });
  });
});
