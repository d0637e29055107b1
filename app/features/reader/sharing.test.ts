import { describe, expect, it } from "vitest";
import { mayShareChapterPage } from "./sharing";

describe("who may share a kept chapter page", () => {
  it.each([
    ["a visitor, open chapter", undefined, false, true],
    ["a visitor, locked chapter (the lock shows no personal figure)", undefined, true, true],
    ["a signed-in reader, open chapter", { role: "reader" }, false, true],
    ["a signed-in reader, locked chapter", { role: "reader" }, true, false],
    ["an author, open chapter", { role: "author" }, false, false],
    ["an author, locked chapter", { role: "author" }, true, false],
  ])("%s", (_case, reader, locked, shared) => {
    expect(mayShareChapterPage(reader, locked)).toBe(shared);
  });
});
