import type { RouteConfig } from "@react-router/dev/routes";
import { COMMENT_LIMITS, commentOrders } from "./features/comments/rules";
import { linkOutcomes } from "./features/discord/outcomes";
import { WALL_MAX_PAGE } from "./features/fundraiser/wall-page";
import { wallTiers } from "./features/fundraiser/wall-tiers";
import { shopFilters } from "./features/shop/catalog";
import { UPLOAD_BODY_OVERHEAD, UPLOAD_MAX_BYTES } from "./features/uploads/limits";
import { index, KB, layout, type RouteRules, route, routeTable, served } from "./lib/route-rules";

// Each route's rules sit beside it (ADR 73): who may share its kept page and what retires it, the query it
// reads, whether it is private, its body limit and its secrets. The common ones are named here.

/** A page every visitor may share once a render marks it shareable, retired by every content change. */
const publicPage = { share: "visitors", retiredBy: "any", private: false } as const satisfies RouteRules;
/** The same for a page that shows no chapter's text, word count or edit time. */
const publicPageNoChapter = { ...publicPage, retiredBy: "broad" } as const satisfies RouteRules;
/** Answered by its route every time (a redirect, a file, a resource for scripts), for anyone to find. */
const unkept = { share: "none", private: false } as const satisfies RouteRules;
/** A reader's own page, a form or a payment step, or the author's admin: never kept, never indexed. */
const personal = { share: "none", private: true } as const satisfies RouteRules;
/** A signed-in reader's own page, kept for their session alone (ADR 53); never indexed. */
const ownPage = { share: "own", retiredBy: "any", private: true } as const satisfies RouteRules;
/** The comments' order and page (the pager reaches no further than maxPage, ADR 47). */
const commentQuery = {
  order: commentOrders.filter((order) => order !== "newest"),
  page: Array.from({ length: COMMENT_LIMITS.maxPage - 1 }, (_, i) => String(i + 2)),
};
/**
 * The table of contents: one kept page for all signed-in readers with the same access (ADR 101), its search
 * by title and its jump to a chapter rendered as asked (ADR 92).
 */
const tocPage = {
  ...publicPage,
  share: "access",
  latest: true,
  comments: true,
  search: ["q", "chapter"],
} as const satisfies RouteRules;
/** A page of the shop: one kept page for all signed-in readers alike with the same cart (ADR 102). */
const shopPage = { ...publicPageNoChapter, share: "access", cart: true } as const satisfies RouteRules;
/** A chapter's text (200 KB of UTF-8; Japanese triples once form-encoded) and its drafts. */
const chapterForm = { ...personal, body: 2048 * KB } as const satisfies RouteRules;

/** The whole URL map, each route with its rules. */
export const siteRoutes = routeTable([
  index("routes/home.tsx", publicPage),
  route("about", "routes/about.tsx", publicPageNoChapter),
  route("chapters", "routes/toc.tsx", tocPage, { id: "chapters" }),
  route("toc", "routes/toc.tsx", tocPage, { id: "toc" }),
  route("toc/volume/:volume", "routes/toc.tsx", tocPage, { id: "toc-volume" }),
  // The EPUB of what the reader may open (ADR 89), of the serial or of one volume: each reader's own file.
  route("epub", "routes/epub.ts", personal, { id: "epub" }),
  route("epub/volume/:volume", "routes/epub.ts", personal, { id: "epub-volume" }),
  // A volume's locked coin chapters unlocked at once: the price shown first, then all or none (ADR 90).
  route("unlock/volume/:volume", "routes/toc-volume-unlock.tsx", personal),
  route("chapter", "routes/chapter-start.ts", unkept),
  route("chapter/:id", "routes/chapter.tsx", { share: "chapter", retiredBy: "chapter", private: false }),
  route("chapter/:id/comments", "routes/chapter-comments.tsx", {
    ...publicPage,
    retiredBy: "chapter",
    comments: true,
    query: commentQuery,
  }),
  // A batch of progress entries.
  route("reader/progress", "routes/reader/progress.ts", { ...personal, body: 16 * KB }),
  route("reader/settings", "routes/reader/settings.ts", personal),
  // Beta reading (ADR 83): drafts for First Human supporters. Never kept, never indexed; a 404 for anyone else.
  route("beta", "routes/beta/index.tsx", personal),
  route("beta/:id", "routes/beta/chapter.tsx", personal),
  route("wiki", "routes/wiki/index.tsx", publicPageNoChapter),
  route("wiki/:section", "routes/wiki/section.tsx", publicPageNoChapter),
  route("wiki/:section/:slug", "routes/wiki/page.tsx", publicPageNoChapter),
  route("gallery", "routes/gallery.tsx", publicPageNoChapter),
  // The shop's pages share the cart bar (ADR 24); readers with the same cart share one page (ADR 102).
  layout("routes/shop/layout.tsx", [
    route("shop", "routes/shop/index.tsx", {
      ...shopPage,
      query: { category: shopFilters.filter((filter) => filter !== "all") },
    }),
    route("shop/product/:id", "routes/shop/product.tsx", shopPage),
    // The inquiry form's "sent" notice (ADR 26).
    route("shop/product/:id/inquire", "routes/shop/inquire.tsx", {
      ...publicPage,
      cart: true,
      query: { sent: ["1"] },
    }),
    route("checkout", "routes/checkout.tsx", { ...ownPage, cart: true }),
  ]),
  route("cart", "routes/cart.tsx", personal),
  route("cart/reply", "routes/cart-reply.ts", personal),
  // Readers with no running subscription share one page; a subscriber's tier cards are theirs (ADR 102).
  route("fundraiser", "routes/fundraiser.tsx", {
    ...publicPageNoChapter,
    share: "access",
    subscription: true,
  }),
  route("fundraiser/supporters", "routes/fundraiser/supporters.tsx", {
    ...publicPageNoChapter,
    query: {
      tier: wallTiers,
      page: Array.from({ length: WALL_MAX_PAGE - 1 }, (_, i) => String(i + 2)),
    },
  }),
  route("fundraiser/thanks", "routes/fundraiser/thanks.tsx", personal),
  // Votes on art: each reader's own (their vote, their tier), and timed: rendered per request, yet public.
  route("polls", "routes/polls.tsx", unkept),
  route("credits", "routes/credits.tsx", publicPageNoChapter),
  route("terms", "routes/legal.tsx", publicPageNoChapter, { id: "terms" }),
  route("privacy", "routes/legal.tsx", publicPageNoChapter, { id: "privacy" }),
  route("preferences", "routes/preferences.ts", personal),
  route("login", "routes/auth/login.tsx", personal),
  // A sign-in's second step (ADR 65): an authenticator code, a passkey, a recovery code or an e-mailed code.
  route("login/verify", "routes/auth/login-verify.tsx", personal),
  route("login/verify/passkey", "routes/auth/login-verify-passkey.ts", personal),
  route("register", "routes/auth/register.tsx", personal),
  route("welcome", "routes/auth/welcome.tsx", personal),
  route("confirm-email", "routes/auth/confirm-email.tsx", { ...personal, secrets: ["token"] }),
  route("logout", "routes/auth/logout.ts", unkept),
  route("forgot-password", "routes/auth/forgot-password.tsx", personal),
  route("reset-password", "routes/auth/reset-password.tsx", { ...personal, secrets: ["token"] }),
  route("auth/:provider", "routes/auth/oauth-start.ts", personal),
  route("auth/:provider/callback", "routes/auth/oauth-callback.tsx", {
    ...personal,
    secrets: ["code", "state"],
  }),
  route("outbox", "routes/outbox/index.tsx", personal),
  route("outbox/:id", "routes/outbox/message.tsx", personal),
  route("account", "routes/account/index.tsx", ownPage),
  route("account/data", "routes/account/data.ts", personal),
  route("account/supporter", "routes/account/supporter.tsx", personal),
  route("account/subscription", "routes/account/subscription.tsx", personal),
  route("settings", "routes/settings.tsx", { ...ownPage, query: { discord: linkOutcomes } }),
  // The Discord role perk (ADR 84): link or unlink, and Discord's redirect back.
  route("settings/discord", "routes/settings-discord.ts", personal),
  route("settings/discord/callback", "routes/settings-discord-callback.ts", {
    ...personal,
    secrets: ["code", "state"],
  }),
  // Rendered for its reader each time: not one of ADR 53's own pages.
  route("settings/security", "routes/settings-security.tsx", personal),
  route("settings/security/passkey", "routes/settings-passkey.ts", personal),
  // Release e-mails (ADR 45): "Notify me", and the e-mails' unsubscribe link (no sign-in needed; the page
  // says noindex itself).
  route("notify", "routes/notify.ts", unkept),
  route("notify/state", "routes/notify-state.ts", unkept),
  route("unsubscribe/:token", "routes/unsubscribe.tsx", { ...unkept, secrets: ["token"] }),
  route("achievements", "routes/achievements.tsx", ownPage),
  // Monthly Q&A (ADR 82): the ask form and a month's answers differ per reader (tier, questions left), so
  // no page of them is shared; the months themselves are public.
  route("qa", "routes/qa/index.tsx", { share: "none", private: false }),
  route("qa/:month", "routes/qa/month.tsx", { share: "none", private: false }),
  // The coin packs and the reader's balance (ADR 101); a payment's result and the way back to a locked chapter
  // are rendered as asked.
  route("coins", "routes/coins/index.tsx", {
    share: "access",
    retiredBy: "broad",
    private: true,
    balance: true,
    search: ["payment", "chapter", "cancelled"],
  }),
  route("orders/:id", "routes/orders/order.tsx", personal),
  // The test provider's checkout pages: their ids are the payer's capability.
  route("pay/test/:session", "routes/payments/test-checkout.tsx", { ...personal, secrets: ["session"] }),
  route("pay/test/subscription/:subscription", "routes/payments/test-subscription.tsx", {
    ...personal,
    secrets: ["subscription"],
  }),
  // A provider's webhook event can be large.
  route("webhooks/:provider", "routes/payments/webhook.ts", { ...personal, body: 1024 * KB }),
  // The releases feed (ADR 44), Atom and RSS 2.0.
  route("feed.atom", "routes/feed.ts", unkept, { id: "feed-atom" }),
  route("feed.rss", "routes/feed.ts", unkept, { id: "feed-rss" }),
  route("feed/private/:token", "routes/feed-private.ts", { ...personal, secrets: ["token"] }),
  route("sitemap.xml", "routes/sitemap.ts", unkept, { id: "sitemap" }),
  route("robots.txt", "routes/sitemap.ts", unkept, { id: "robots" }),
  // Link preview cards (ADR 46).
  route("card/site.png", "routes/card.ts", unkept, { id: "card-site" }),
  route("card/chapter/:file", "routes/card.ts", unkept, { id: "card-chapter" }),
  // The author's admin (ADR 34): every loader and action checks the role; anyone else gets the 404. Kept for
  // no one, the 404 included.
  route("admin/drafts", "routes/admin/drafts.ts", chapterForm),
  // The editor's preview: the text (200 KB at most, the route says so), posted as multipart.
  route("admin/preview", "routes/admin/preview.ts", { ...personal, body: 256 * KB }),
  route("admin/export/orders.csv", "routes/admin/export.ts", personal, { id: "admin-export-orders" }),
  route("admin/export/payments.csv", "routes/admin/export.ts", personal, { id: "admin-export-payments" }),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/index.tsx", personal),
    route("admin/chapters", "routes/admin/chapters.tsx", personal),
    route("admin/qa", "routes/admin/qa.tsx", personal),
    route("admin/announcements", "routes/admin/announcements.tsx", personal),
    route("admin/chapters/new", "routes/admin/chapter.tsx", chapterForm, { id: "admin-chapter-new" }),
    route("admin/chapters/:id", "routes/admin/chapter.tsx", chapterForm, { id: "admin-chapter" }),
    route("admin/chapters/:id/revisions", "routes/admin/revisions.tsx", personal),
    route("admin/chapters/:id/translations/:lang", "routes/admin/chapter-translation.tsx", chapterForm),
    route("admin/translations", "routes/admin/translations.tsx", personal),
    // A legal page's translation may be long: the chapter forms' limit.
    route("admin/translations/:kind/:lang", "routes/admin/translation.tsx", chapterForm),
    route("admin/chapters/:id/feedback", "routes/admin/chapter-feedback.tsx", personal),
    // One image of up to 10 MB (ADR 33) in a multipart body.
    route("admin/uploads", "routes/admin/uploads.tsx", {
      ...personal,
      body: UPLOAD_MAX_BYTES + UPLOAD_BODY_OVERHEAD,
    }),
    route("admin/wiki", "routes/admin/wiki.tsx", personal),
    route("admin/wiki/new", "routes/admin/wiki-page.tsx", personal, { id: "admin-wiki-new" }),
    route("admin/wiki/:id", "routes/admin/wiki-page.tsx", personal, { id: "admin-wiki-page" }),
    route("admin/gallery", "routes/admin/gallery.tsx", personal),
    route("admin/gallery/new", "routes/admin/gallery-item.tsx", personal, { id: "admin-gallery-new" }),
    route("admin/gallery/:id", "routes/admin/gallery-item.tsx", personal, { id: "admin-gallery-item" }),
    route("admin/coins", "routes/admin/coins.tsx", personal),
    route("admin/coins/new", "routes/admin/coin-pack.tsx", personal, { id: "admin-coins-new" }),
    route("admin/coins/:key", "routes/admin/coin-pack.tsx", personal, { id: "admin-coin-pack" }),
    route("admin/tiers", "routes/admin/tiers.tsx", personal),
    route("admin/goals", "routes/admin/goals.tsx", personal),
    route("admin/goals/new", "routes/admin/goal.tsx", personal, { id: "admin-goal-new" }),
    route("admin/goals/:id", "routes/admin/goal.tsx", personal, { id: "admin-goal" }),
    route("admin/polls", "routes/admin/polls.tsx", personal),
    route("admin/polls/new", "routes/admin/poll.tsx", personal, { id: "admin-poll-new" }),
    route("admin/polls/:id", "routes/admin/poll.tsx", personal, { id: "admin-poll" }),
    route("admin/credits", "routes/admin/credits.tsx", personal),
    route("admin/products", "routes/admin/products.tsx", personal),
    route("admin/products/new", "routes/admin/product.tsx", personal, { id: "admin-product-new" }),
    route("admin/products/:id", "routes/admin/product.tsx", personal, { id: "admin-product" }),
    route("admin/site", "routes/admin/site.tsx", personal),
    route("admin/legal/:slug", "routes/admin/legal.tsx", personal),
    route("admin/orders", "routes/admin/orders.tsx", personal),
    route("admin/orders/:id", "routes/admin/order.tsx", personal),
    route("admin/payments", "routes/admin/payments.tsx", personal),
    route("admin/payments/:id", "routes/admin/payment.tsx", personal),
    route("admin/subscriptions", "routes/admin/subscriptions.tsx", personal),
    route("admin/readers", "routes/admin/readers.tsx", personal),
    route("admin/comments", "routes/admin/comments.tsx", personal),
    route("admin/inquiries", "routes/admin/inquiries.tsx", personal),
    route("admin/readers/:id", "routes/admin/reader.tsx", personal),
    route("admin/analytics", "routes/admin/analytics.tsx", personal),
    route("admin/analytics/:id", "routes/admin/analytics-chapter.tsx", personal),
    route("admin/authors", "routes/admin/authors.tsx", personal),
    route("admin/audit", "routes/admin/audit.tsx", personal),
    route("admin/clock", "routes/admin/clock.tsx", personal),
  ]),
  // Answered by Express before React Router (server/app.ts).
  served("healthz", unkept),
  served("media/*", unkept),
  served("assets/*", unkept),
  // Any other path: the 404 page, kept for no one.
  route("*", "routes/not-found.tsx", unkept),
]);

export default siteRoutes.config satisfies RouteConfig;
