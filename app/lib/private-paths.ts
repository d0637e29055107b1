/**
 * Paths that are a reader's own or the site's machinery, never a page to find in a search engine (issue 21):
 * the admin, a reader's pages, forms and payment steps, and the machine endpoints. `robots.txt` disallows
 * them and the pages among them say `noindex` (the root layout), from this one list.
 */
export const PRIVATE_PATHS = [
  "/admin",
  "/account",
  "/settings",
  "/achievements",
  "/orders/",
  "/cart",
  "/checkout",
  "/coins",
  "/pay/",
  "/outbox",
  "/reader/",
  "/auth/",
  "/webhooks/",
  "/feed/private/",
  "/preferences",
  "/fundraiser/thanks",
  "/welcome",
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/confirm-email",
] as const;

/** Whether a path is one of the private ones (a prefix match, as robots.txt reads its rules). */
export function isPrivatePath(pathname: string): boolean {
  return PRIVATE_PATHS.some((prefix) => pathname.startsWith(prefix));
}
