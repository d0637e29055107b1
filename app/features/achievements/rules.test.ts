import { describe, expect, it } from "vitest";
import type { ChapterFacts } from "~/features/chapters/catalog.server";
import type { Membership } from "~/features/membership/queries.server";
import { computeStreak } from "~/features/streaks/streaks";
import { achievementFacts, meets } from "./rules";

const NOW = new Date("2026-11-25T12:00:00Z");
const chapter = (id: number, volume: number, released = true): ChapterFacts => ({
  id,
  number: id,
  title: `Chapter ${id}`,
  volume: { number: volume, title: `Volume ${volume}`, summaryMd: "" },
  releaseAt: new Date(NOW.getTime() + (released ? -86_400_000 : 86_400_000)),
  coinsRequired: 0,
  status: "published",
  wordCount: 1000,
  artwork: [],
  updatedAt: NOW,
});
const free: Membership = {
  tier: "free",
  source: "none",
  until: null,
  totalSpentCents: 0,
  days: { tier: "free", until: null },
};
const published = [chapter(1, 1), chapter(2, 1), chapter(3, 2), chapter(4, 2, false)];
const done = (chapterId: number, local: string | null = "2026-11-20 14:00:00") => ({
  chapterId,
  readingTimeSeconds: 100,
  completed: true,
  completedAt: local ? new Date(`${local.replace(" ", "T")}Z`) : null,
  completedLocal: local,
  bookmarks: 0,
  lastReadAt: NOW,
});
const records = (overrides: Partial<Parameters<typeof achievementFacts>[0]> = {}) => ({
  now: NOW,
  days: [],
  progress: [],
  unlocks: [],
  payments: [],
  settingsChanged: false,
  membership: free,
  catalog: { published, byNumber: new Map(published.map((c) => [c.number, c])), releases: [] },
  streak: computeStreak({ days: [], today: "2026-11-25", busy: [] }),
  ...overrides,
});

describe("achievement rules", () => {
  it("counts chapters, volumes (released chapters only) and all released", () => {
    const facts = achievementFacts(records({ progress: [done(1), done(2), done(3)] }));
    expect(facts.chapters_completed).toBe(3);
    expect(facts.words_read).toBe(3000);
    expect(meets({ key: "v1", rule: "volume_completed", threshold: 1 }, facts)).toBe(true);
    // Volume 2's unreleased chapter 4 does not hold it back.
    expect(meets({ key: "v2", rule: "volume_completed", threshold: 2 }, facts)).toBe(true);
    expect(meets({ key: "v3", rule: "volume_completed", threshold: 3 }, facts)).toBe(false);
    expect(facts.all_released).toBe(1);
    expect(achievementFacts(records({ progress: [done(1)] })).all_released).toBe(0);
  });

  it("finds the night reader (00:00-04:00 local) and the early bird (05:00-07:00) from local times", () => {
    const at = (time: string) => achievementFacts(records({ progress: [done(1, `2026-11-20 ${time}`)] }));
    expect(at("00:00:00").night_reader).toBe(1);
    expect(at("03:59:59").night_reader).toBe(1);
    expect(at("04:00:00").night_reader).toBe(0);
    expect(at("05:30:00").early_bird).toBe(1);
    expect(at("07:00:00").early_bird).toBe(0);
    // A completion from before completion times were kept is no night reading.
    expect(achievementFacts(records({ progress: [done(1, null)] })).night_reader).toBe(0);
  });

  it("counts only paid payments of each kind, and the tier by rank", () => {
    const payment = (kind: string, status: string) => ({
      id: 1,
      kind,
      status,
      description: "",
      coins: 0,
      tierKey: null,
      createdAt: NOW,
    });
    const facts = achievementFacts(
      records({
        payments: [payment("coins", "paid"), payment("gift", "refunded"), payment("subscription", "paid")],
        membership: { ...free, tier: "analyst" },
      }),
    );
    expect(facts).toMatchObject({ coin_pack: 1, supporter: 1, order: 0, tier: 2 });
    expect(meets({ key: "t", rule: "tier", threshold: 3 }, facts)).toBe(false);
    expect(meets({ key: "t", rule: "tier", threshold: 2 }, facts)).toBe(true);
  });

  it("counts languages read in, the longest day in minutes and chapters finished in one day", () => {
    const facts = achievementFacts(
      records({
        days: [
          { day: "2026-11-20", seconds: 3600, languages: ["en", "ja"] },
          { day: "2026-11-21", seconds: 200, languages: ["fr", "en"] },
        ],
        progress: [
          done(1, "2026-11-20 10:00:00"),
          done(2, "2026-11-20 11:00:00"),
          done(3, "2026-11-21 09:00:00"),
        ],
      }),
    );
    expect(facts).toMatchObject({ languages: 3, long_day: 60, chapters_in_a_day: 2, hours_read: 1 });
  });

  it("meets an unknown rule never", () => {
    expect(meets({ key: "x", rule: "no_such_rule", threshold: 1 }, achievementFacts(records()))).toBe(false);
  });
});
