import { z } from "zod";
import { wholeNumber } from "~/lib/forms";
import { COMMENT_LIMITS, commentOrders } from "./rules";

export { COMMENT_LIMITS, commentOrders };

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
