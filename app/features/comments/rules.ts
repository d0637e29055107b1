// Read by app/routes.ts too, which React Router loads without the project's import aliases: no `~/` here.

/** The rules of chapter comments (ADR 47), shared by the forms, the server and the tests. */
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
