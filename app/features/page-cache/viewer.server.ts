import { createHash } from "node:crypto";
import {
  cachedSessionUser,
  type KeptSessionUser,
  keptSessionUser,
  readerGeneration,
  sessionCookieName,
} from "~/features/auth/session.server";
import { CART_COOKIE } from "~/features/cart/cookie.server";
import type { CartLine } from "~/features/cart/lines";
import { type ChapterCatalog, getChapterCatalog } from "~/features/chapters/catalog.server";
import {
  chapterLock,
  findChapter,
  type Lock,
  lockWithoutQuery,
  visibleChapter,
} from "~/features/reader/access.server";
import { latestRead } from "~/features/reader/queries.server";
import { mayShareChapterPage } from "~/features/reader/sharing";
import { type ReadingSettings, settingChoices } from "~/features/reading-settings/settings";
import { SIDE_BY_SIDE_COOKIE } from "~/features/reading-settings/side-by-side-cookie";
import {
  broadRevision,
  chapterTextRevision,
  currentComments,
  currentRevision,
} from "~/features/site/revision.server";
import { opensReadersVolume } from "~/features/toc/page";
import type { MatchRoute, RouteRules } from "~/lib/route-rules";

/**
 * Which readers see the same page, so the page cache (server/page-cache.ts) can render it once for all of
 * them, as the page's route says (its `share` rule). Every visitor (no session cookie) sees the same public
 * pages. Signed-in readers share a chapter page when they may all read the chapter, or all wait for its
 * release, and use the same reading settings (rendered on <html>). A reader's own pages (`share: "own"`) are
 * kept for their session alone, under their generation (ADR 53). Signed-in readers share a page of the
 * access kind (the table of contents, /coins) when they have the same access to the chapters (ADR 101).
 * Every other page of a signed-in reader is rendered for them (undefined). Personal figures (progress, a
 * balance other readers of the group do not share) are never part of a shared page: the parts that show them
 * fetch them. A page showing the cart bar gives a visitor with a cart cookie their own (ADR 24). The admin,
 * and its 404 for anyone else, is never kept (ADR 34).
 */
export function sharedViewerOf(match: MatchRoute) {
  return (
    pathname: string,
    cookies: Map<string, string>,
  ): string | undefined | Promise<string | undefined> => {
    const route = match(pathname);
    const rules = route?.value.rules;
    if (!rules || rules.share === "none") return undefined;
    const token = cookies.get(sessionCookieName());
    if (!token) {
      if (rules.cart && cookies.get(CART_COOKIE)) return undefined;
      // A visitor reading chapters side by side with the original sees other chapter pages (ADR 97).
      return rules.share === "chapter" && cookies.get(SIDE_BY_SIDE_COOKIE) === "on"
        ? "visitor side-by-side"
        : "visitor";
    }
    if (rules.share === "access") {
      const { balance, cart, subscription } = rules;
      const wantsLatest = rules.latest === true && route.params.volume === undefined;
      return accessViewer(token, { wantsLatest, balance, cart, subscription });
    }
    const own = rules.share === "own";
    // The chapter page itself: its route data is rendered for the reader.
    const chapter =
      rules.share === "chapter" && !pathname.endsWith(".data") ? chapterNumber(route.params.id) : undefined;
    if (!own && !chapter) return undefined;
    // From memory while the server follows the session events (ADR 49): a revoked session is forgotten at
    // once on the instance that revoked it and within 250 ms on the others. A kept session, the kept catalogue
    // and a lock that needs no query answer without a promise: the busiest path, a reader on a chapter they
    // may read.
    const user = keptSessionUser(token);
    if (user && !chapter) return ownGroup(user);
    const catalog = getChapterCatalog.peek();
    if (user && chapter && catalog) {
      const facts = visibleChapter(catalog, Number(chapter), user);
      if (!facts) return undefined;
      const known = lockWithoutQuery(facts, user);
      if (known) return readerGroup(user, known.lock);
    }
    return askedViewer(token, chapter);
  };
}

/** A chapter's number as a path names it: up to six digits. */
function chapterNumber(param: string | undefined): string | undefined {
  return param !== undefined && /^\d{1,6}$/.test(param) ? param : undefined;
}

/** `sharedViewer` when the session, the catalogue or the chapter's lock must be asked for. */
async function askedViewer(token: string, chapter: string | undefined): Promise<string | undefined> {
  const user = await cachedSessionUser(token);
  if (!user) return undefined;
  if (!chapter) return ownGroup(user);
  const facts = await findChapter(Number(chapter), user);
  return facts && readerGroup(user, await chapterLock(facts, user));
}

/**
 * The group of signed-in readers who see the same page of the access kind. From memory for a kept session
 * on a serial short enough to open every volume; on a long one the volume the reader would continue in opens
 * (`wantsLatest`: none named), so the chapter they read last joins the group's name.
 */
function accessViewer(token: string, page: AccessPage): string | undefined | Promise<string | undefined> {
  const user = keptSessionUser(token);
  const catalog = getChapterCatalog.peek();
  if (user && catalog && !latestNeeded(catalog, page.wantsLatest)) return accessGroup(user, "", page);
  return askedAccessViewer(token, page);
}

/**
 * What names an access page's group besides the access: the reader's latest chapter, their balance, their
 * cart; and what makes it the reader's own: a subscription (the route's rules).
 */
type AccessPage = Pick<RouteRules & { share: "access" }, "balance" | "cart" | "subscription"> & {
  wantsLatest: boolean;
};

const latestNeeded = (catalog: ChapterCatalog, wantsLatest: boolean) =>
  wantsLatest && opensReadersVolume(catalog.published.length);

async function askedAccessViewer(token: string, page: AccessPage): Promise<string | undefined> {
  const user = await cachedSessionUser(token);
  if (!user) return undefined;
  if (!latestNeeded(await getChapterCatalog(), page.wantsLatest)) return accessGroup(user, "", page);
  const latest = await latestRead(user.id);
  return accessGroup(user, latest ? `${latest.number}${latest.mark.completed ? "+" : ""}` : "none", page);
}

/**
 * Readers with the same access to the chapters: membership tier (what they read ahead), unlocked chapters,
 * confirmed address (the root's banner) and reading settings; `latest`, the chapter they read last where the
 * page opens its volume; the coin balance where the page shows it (it is read with the session, and any change
 * of it ends the kept session: ADR 49); the cart's lines where the page shows the cart bar (ADR 102).
 * Undefined for an author (drafts, the admin's link), a reader with too many unlocks to keep in memory, and a
 * subscriber where the page shows their subscription (ADR 102): their page is rendered for them.
 */
function accessGroup(user: KeptSessionUser, latest: string, page: AccessPage): string | undefined {
  if (user.role !== "reader" || !user.unlockedChapterIds) return undefined;
  if (page.subscription && user.subscribed) return undefined;
  const settings = settingsKey(user);
  const confirmed = user.emailConfirmed ? "confirmed" : "unconfirmed";
  const unlocks = shortName(user.unlockedChapterIds, (ids) => [...ids].sort((a, b) => a - b).join(","));
  const balance = page.balance ? ` coins ${user.coinBalance}` : "";
  const cart = page.cart && user.cart.length ? ` cart ${shortName(user.cart, cartName)}` : "";
  return `access ${settings} ${user.membershipTier} ${confirmed} ${unlocks} ${latest}${balance}${cart}`;
}

/** A cart's lines as one name: product, variant and quantity of each, in the cart's order. */
const cartName = (lines: readonly CartLine[]) =>
  lines.map((line) => `${line.productId}.${line.variantId ?? ""}x${line.quantity}`).join(",");

/**
 * A kept session's set or list (its unlocks, its cart) as one short name: itself when short, else its hash.
 * Kept with the session's object, which a change replaces.
 */
function shortName<T extends object>(value: T, name: (value: T) => string): string {
  let short = shortNames.get(value);
  if (short === undefined) {
    const full = name(value);
    short = full.length <= 32 ? full : createHash("sha256").update(full).digest("base64url").slice(0, 22);
    shortNames.set(value, short);
  }
  return short;
}
const shortNames = new WeakMap<object, string>();

/** The reader's own page, kept for this session alone until anything of theirs changes (ADR 53). */
function ownGroup(user: KeptSessionUser): string | undefined {
  const generation = readerGeneration(user.id);
  return generation === undefined ? undefined : `${OWN_GROUP}${user.id} ${user.sessionId} ${generation}`;
}

const OWN_GROUP = "own ";

/** Whether a viewer group (`sharedViewer`) is one reader's session: their own pages. */
export function isOneReader(group: string): boolean {
  return group.startsWith(OWN_GROUP);
}

const settingKeys = Object.keys(settingChoices) as (keyof ReadingSettings)[];

/** Every reading setting, in a fixed order: each is rendered on <html>. */
const settingsKey = (user: KeptSessionUser) => settingKeys.map((key) => user.readingSettings[key]).join(" ");

/** The group of signed-in readers who see the same chapter page, or undefined when it is the reader's own. */
function readerGroup(user: KeptSessionUser, lock: Lock | undefined): string | undefined {
  if (!mayShareChapterPage(user, lock)) return undefined;
  const settings = settingsKey(user);
  // Readers still waiting for the chapter apart from those who may read it (members read ahead): one
  // group's page holds the text, the other's only the release date.
  return `reader${lock ? " waiting" : ""} ${settings}`;
}

/**
 * The revision a kept page at `pathname` is kept by (ADR 54), as its route says (`retiredBy`): a chapter's
 * pages by that chapter's text and every broad change, so an edit of one chapter's text retires its pages and
 * not the serial's; pages that show no chapter's text or its facts (word count, edit time) by broad changes
 * alone; every other page (the table of contents, the home page, a reader's own pages) by every change. With
 * the comments' counter added for the pages showing comments, so a new comment retires these and never the
 * chapter pages (ADR 47). A translation's update moves only its language's pages (ADR 86). Undefined while the
 * database does not answer.
 */
export function pageRevisionOf(match: MatchRoute) {
  return (pathname: string, language?: string): number | undefined => {
    const route = match(pathname);
    const rules = route?.value.rules;
    const kept = rules && rules.share !== "none" ? rules : undefined;
    const chapter = kept?.retiredBy === "chapter" ? chapterNumber(route?.params.id) : undefined;
    const content =
      chapter !== undefined
        ? chapterTextRevision(Number(chapter), language)
        : kept?.retiredBy === "broad"
          ? broadRevision(language)
          : currentRevision(language);
    if (content === undefined || !kept?.comments) return content;
    const comments = currentComments();
    return comments === undefined ? undefined : content + comments;
  };
}
