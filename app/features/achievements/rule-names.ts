/**
 * What earns an achievement (docs/product-rules.md "Achievements"). The catalogue (content/achievements.md)
 * names a rule and, where it has one, a threshold; the author may add achievements on these rules.
 */
export const achievementRules = [
  "chapters_completed",
  "volume_completed",
  "all_released",
  "streak",
  "reading_days",
  "hours_read",
  "words_read",
  "unlocks",
  "coin_pack",
  "order",
  "supporter",
  "tier",
  "bookmark",
  "night_reader",
  "early_bird",
  "settings_changed",
  "languages",
  "freeze_spent",
  "read_ahead",
  "long_day",
  "chapters_in_a_day",
] as const;
export type AchievementRule = (typeof achievementRules)[number];
