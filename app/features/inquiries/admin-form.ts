import { z } from "zod";
import { type InquiryStatus, inquiryStatuses } from "#db/schema";
import { wholeNumber } from "~/lib/forms";

/** The admin's inquiries list (ADR 59): all, or those of one status; newest first, a page at a time. */
export const inquiryViews = ["all", ...inquiryStatuses] as const;
export type InquiryView = (typeof inquiryViews)[number];

const id = wholeNumber(1, 2_147_483_647);

/** The list's URL: an unknown view is all, a bad page mark the first page (a URL is never an error). */
export const inquiryFilterSchema = z.object({
  view: z.enum(inquiryViews).catch("all"),
  before: id.optional().catch(undefined),
});

/** Marking one answered, or new again (a mark made by mistake): the inquiry's id and the status wanted. */
export const inquiryStatusSchema = z.object({
  inquiry: id,
  status: z.enum(inquiryStatuses),
});

export type InquiryStatusChange = { inquiry: number; status: InquiryStatus };
