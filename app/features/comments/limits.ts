import { z } from "zod";
import { wholeNumber } from "~/lib/forms";

/** The rules of chapter comments (issue 21, ADR 47), shared by the forms, the server and the tests. */
export const COMMENT_LIMITS = {
  /** Characters of Markdown in one comment. */
  bodyMax: 5000,
  /** Top-level comments a page (each with its replies). */
  pageSize: 30,
  /** How long after posting its writer may change a comment. */
  editMinutes: 15,
  /** Comments one reader may post in any 60 seconds. */
  perMinute: 5,
  /** An account younger than this may not post a link (spam arrives with new accounts). */
  linkAfterHours: 24,
  /** Characters of a report's reason. */
  reportMax: 500,
  /** Pages reachable by the pager (30 × 500 comments): a page number past it is refused, not queried. */
  maxPage: 500,
} as const;

export const commentOrders = ["newest", "oldest"] as const;
export type CommentOrder = (typeof commentOrders)[number];

const id = wholeNumber(1, 2_147_483_647);
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "1" || value === "true");

/** What a reader writes; the message keys are the `comments.errors` catalogue's. */
export const commentBody = z
  .string({ error: "comments.errors.empty" })
  .trim()
  .min(1, "comments.errors.empty")
  .max(COMMENT_LIMITS.bodyMax, "comments.errors.tooLong");

export const postSchema = z.object({ body: commentBody, spoiler: checkbox, parent: id.optional() });
export const editSchema = z.object({ comment: id, body: commentBody, spoiler: checkbox });
export const commentIdSchema = z.object({ comment: id });
export const heartSchema = z.object({ comment: id, on: z.enum(["0", "1"]) });
export const reportSchema = z.object({
  comment: id,
  reason: z.string().trim().max(COMMENT_LIMITS.reportMax, "comments.errors.reasonTooLong").default(""),
});

/** A page's query: order and page, each its default when missing or not one of the allowed values. */
export const listQuerySchema = z.object({
  order: z.enum(commentOrders).catch("newest"),
  page: wholeNumber(1, COMMENT_LIMITS.maxPage).catch(1),
});

/** The intents a comments form sends. */
export const commentIntents = ["post", "edit", "delete", "heart", "report"] as const;
export type CommentIntent = (typeof commentIntents)[number];
