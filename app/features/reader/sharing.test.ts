import { describe, expect, it } from "vitest";
import { mayShareChapterPage } from "./sharing";

describe("who may share a kept chapter page", () => {
  const coins = { kind: "coins" };
  const release = { kind: "release" };
  it.each([
    ["a visitor, open chapter", undefined, undefined, true],
    ["a visitor, coin-locked chapter (the lock shows no personal figure)", undefined, coins, true],
    ["a visitor, chapter not yet released", undefined, release, true],
    ["a signed-in reader, open chapter", { role: "reader" }, undefined, true],
    ["a signed-in reader, coin-locked chapter (balance and offer)", { role: "reader" }, coins, false],
    ["a signed-in reader, chapter not yet released (the date only)", { role: "reader" }, release, true],
    ["an author, open chapter", { role: "author" }, undefined, false],
    ["an author, chapter not yet released", { role: "author" }, release, false],
  ])("%s", (_case, reader, lock, shared) => {
    expect(mayShareChapterPage(reader, lock)).toBe(shared);
  });
});
