/**
 * The moderation page's lists and actions (ADR 47), shared by its page and
 * app/features/comments/moderation.server.ts.
 */
export const moderationViews = ["reported", "hidden", "all"] as const;
export type ModerationView = (typeof moderationViews)[number];

export const moderationActions = ["hide", "restore", "delete", "dismiss"] as const;
export type ModerationAction = (typeof moderationActions)[number];
