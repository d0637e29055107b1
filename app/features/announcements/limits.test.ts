import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { ANNOUNCEMENT_LIMITS, announcementSchema, deleteAnnouncementSchema } from "./limits";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};
const KEY = "k".repeat(43);
const MESSAGES = new Set([
  "admin.announcements.errors.title",
  "admin.announcements.errors.body",
  "admin.announcements.errors.key",
]);

describe("announcementSchema (ADR 95)", () => {
  it("reads a one-line title and a Markdown text, trimmed, line ends made \\n", () => {
    expect(
      parseForm(
        announcementSchema,
        form({ title: "  New\n  volume\tsoon ", bodyMd: " **Hello**\r\n\r\nAll.\n", key: KEY }),
      ),
    ).toEqual({ ok: true, data: { title: "New volume soon", bodyMd: "**Hello**\n\nAll.", key: KEY } });
  });

  it("takes 120 title and 2,000 text characters (emoji count as one) and refuses one more", () => {
    expect(ANNOUNCEMENT_LIMITS).toMatchObject({ title: 120, body: 2000 });
    const ok = parseForm(
      announcementSchema,
      form({ title: "🦇".repeat(120), bodyMd: "🦇".repeat(2000), key: KEY }),
    );
    expect(ok.ok).toBe(true);
    expect(parseForm(announcementSchema, form({ title: "a".repeat(121), bodyMd: "x", key: KEY }))).toEqual({
      ok: false,
      errors: { title: "admin.announcements.errors.title" },
    });
    expect(parseForm(announcementSchema, form({ title: "t", bodyMd: "a".repeat(2001), key: KEY }))).toEqual({
      ok: false,
      errors: { bodyMd: "admin.announcements.errors.body" },
    });
  });

  it("refuses an empty title or text, and a missing or malformed form key", () => {
    expect(parseForm(announcementSchema, form({ title: "  ", bodyMd: "x", key: KEY }))).toMatchObject({
      errors: { title: "admin.announcements.errors.title" },
    });
    expect(parseForm(announcementSchema, form({ title: "t", bodyMd: "\n \n", key: KEY }))).toMatchObject({
      errors: { bodyMd: "admin.announcements.errors.body" },
    });
    for (const key of ["", "short", "x".repeat(65), `${"a".repeat(20)}/${"b".repeat(20)}`])
      expect(parseForm(announcementSchema, form({ title: "t", bodyMd: "x", key }))).toMatchObject({
        errors: { key: "admin.announcements.errors.key" },
      });
    expect(parseForm(announcementSchema, form({ title: "t", bodyMd: "x" })).ok).toBe(false);
  });

  it("never throws, and accepts only what fits, or refuses with a known message (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            title: fc.oneof(fc.string({ maxLength: 130 }), fc.string({ unit: "grapheme", maxLength: 60 })),
            bodyMd: fc.oneof(
              fc.string({ maxLength: 300 }),
              fc.string({ minLength: 1990, maxLength: 2010, unit: "binary" }),
            ),
            key: fc.oneof(fc.constant(KEY), fc.string({ maxLength: 70 })),
          },
          { requiredKeys: [] },
        ),
        (values) => {
          const result = parseForm(announcementSchema, form(values));
          if (result.ok) {
            expect([...result.data.title].length).toBeGreaterThan(0);
            expect([...result.data.title].length).toBeLessThanOrEqual(ANNOUNCEMENT_LIMITS.title);
            expect(result.data.title).not.toMatch(/\s{2}|\n/);
            expect([...result.data.bodyMd].length).toBeLessThanOrEqual(ANNOUNCEMENT_LIMITS.body);
            expect(result.data.bodyMd.trim()).toBe(result.data.bodyMd);
          } else {
            for (const message of Object.values(result.errors)) expect(MESSAGES.has(message)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("deletes by a positive id only", () => {
    expect(parseForm(deleteAnnouncementSchema, form({ id: "12" }))).toEqual({ ok: true, data: { id: 12 } });
    for (const id of ["0", "-1", "x", "99999999999"])
      expect(parseForm(deleteAnnouncementSchema, form({ id })).ok).toBe(false);
  });
});
