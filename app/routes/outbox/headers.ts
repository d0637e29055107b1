import type { HeadersFunction } from "react-router";

/** Live sign-in and reset links: never kept by any cache, never indexed (ADR 20). */
export const outboxHeaders: HeadersFunction = () => ({
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
});
