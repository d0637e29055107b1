import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { outcomeFrom } from "./outcomes";
import { desiredRole, roleChange } from "./roles";
import { CODE_MAX, callbackSchema, discordFormSchema, STATE_MAX } from "./schemas";

describe("the callback's query", () => {
  it("takes a code and state up to their limits, and refuses one character more", () => {
    const ok = callbackSchema.safeParse({ code: "a".repeat(CODE_MAX), state: "b".repeat(STATE_MAX) });
    expect(ok.success).toBe(true);
    expect(callbackSchema.safeParse({ code: "a".repeat(CODE_MAX + 1) }).success).toBe(false);
    expect(callbackSchema.safeParse({ state: "b".repeat(STATE_MAX + 1) }).success).toBe(false);
    expect(callbackSchema.safeParse({ state: "a b" }).success).toBe(false);
  });

  it("never throws on any query (fuzz)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 2000 })), (query) => {
        const parsed = callbackSchema.safeParse(query);
        if (!parsed.success) return;
        expect((parsed.data.code ?? "").length).toBeLessThanOrEqual(CODE_MAX);
        expect((parsed.data.state ?? "").length).toBeLessThanOrEqual(STATE_MAX);
      }),
      { numRuns: 500 },
    );
  });

  it("takes only link and unlink from the form (fuzz)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (intent) => {
        const parsed = discordFormSchema.safeParse({ intent });
        expect(parsed.success).toBe(intent === "link" || intent === "unlink");
      }),
    );
  });

  it("reads back only its own outcomes", () => {
    expect(outcomeFrom("linked")).toBe("linked");
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect([undefined, value]).toContain(outcomeFrom(value));
      }),
    );
    expect(outcomeFrom("constructor")).toBeUndefined();
  });
});

describe("the role a tier gives", () => {
  const roles = { observer: "1", analyst: "2", first_human: "3" };

  it("is the tier's own, none for free or a tier without a role id", () => {
    expect(desiredRole("free", roles)).toBeNull();
    expect(desiredRole("observer", roles)).toBe("1");
    expect(desiredRole("first_human", roles)).toBe("3");
    expect(desiredRole("analyst", { observer: "1" })).toBeNull();
  });

  it("changes by taking the applied role and giving the desired one, or nothing", () => {
    expect(roleChange("1", "1")).toEqual({ remove: null, add: null });
    expect(roleChange(null, "1")).toEqual({ remove: null, add: "1" });
    expect(roleChange("1", "2")).toEqual({ remove: "1", add: "2" });
    expect(roleChange("2", null)).toEqual({ remove: "2", add: null });
  });
});
