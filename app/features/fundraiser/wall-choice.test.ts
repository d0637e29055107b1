import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { shownName } from "./queries.server";
import { toSupporterChoice, wallChoiceSchema } from "./wall-choice";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
}
const errors = (values: Record<string, string>) => {
  const result = parseForm(wallChoiceSchema, form(values));
  return result.ok ? undefined : result.errors;
};

describe("the wall choice", () => {
  it("keeps a message of 140 characters (code points) and refuses 141", () => {
    expect(errors({ message: "🦇".repeat(140) })).toBeUndefined();
    expect(errors({ message: "a".repeat(141) })).toEqual({ message: "supporters.errors.messageLength" });
  });

  it("refuses control characters and line breaks in the name and message (one line of plain text)", () => {
    expect(errors({ message: "one\ntwo" })).toEqual({ message: "supporters.errors.plainText" });
    expect(errors({ display: "name", displayName: "A\u202eB" })).toEqual({
      displayName: "supporters.errors.plainText",
    });
    // Markup is just text: kept as typed, shown escaped.
    expect(errors({ message: "<script>alert(1)</script> **bold**" })).toBeUndefined();
  });

  it("needs a display name only to appear under one, and keeps it only then", () => {
    expect(errors({ display: "name" })).toEqual({ displayName: "supporters.errors.nameRequired" });
    expect(errors({ display: "name", displayName: "x".repeat(41) })).toEqual({
      displayName: "supporters.errors.nameLength",
    });
    const parsed = parseForm(wallChoiceSchema, form({ display: "anonymous", displayName: "Secret Sam" }));
    if (!parsed.ok) throw new Error("valid");
    expect(toSupporterChoice(parsed.data).name).toBe("");
  });

  it("refuses an emoji not offered and an unknown display", () => {
    expect(errors({ emoji: "💩" })).toEqual({ emoji: "supporters.errors.emoji" });
    expect(errors({ display: "everyone" })).toEqual({ display: "supporters.errors.display" });
  });
});

describe("a wall entry's shown name (docs/security-model.md, anonymity)", () => {
  it("is nothing at all for Anonymous and not listed, whatever the row holds", () => {
    for (const display of ["anonymous", "hidden"])
      expect(shownName({ display, name: "Secret Sam", username: "sam_the_reader" })).toBeNull();
  });

  it("is the current username, or the display name", () => {
    expect(shownName({ display: "username", name: "Old", username: "renamed_reader" })).toBe(
      "renamed_reader",
    );
    expect(shownName({ display: "name", name: "Catalina O.", username: null })).toBe("Catalina O.");
  });
});
