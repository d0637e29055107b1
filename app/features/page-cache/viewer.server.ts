import {
  cachedSessionUser,
  type KeptSessionUser,
  keptSessionUser,
  readerGeneration,
  sessionCookieName,
} from "~/features/auth/session.server";
import { CART_COOKIE } from "~/features/cart/cookie.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import {
  chapterLock,
  findChapter,
  type Lock,
  lockWithoutQuery,
  visibleChapter,
} from "~/features/reader/access.server";
import { mayShareChapterPage } from "~/features/reader/sharing";
import {
  broadRevision,
  chapterTextRevision,
  currentComments,
  currentRevision,
} from "~/features/site/revision.server";

/**
 * Which readers see the same page, so the page cache (server/page-cache.ts) can render it once for all of
 * them. Every visitor (no session cookie) sees the same public pages. Signed-in readers share a chapter page
 * when they may all read the chapter, or all wait for its release, and use the same reading settings
 * (rendered on <html>). A reader's own pages (`OWN_PAGES`) are kept for their session alone, under their
 * generation (ADR 53); every other page of a signed-in reader is rendered for them (undefined). Personal
 * figures (progress, balance) are never part of a shared page: the parts that show them fetch them. The shop's pages show the cart bar, so a visitor with a
 * cart cookie gets their own there (ADR 24).
 */
export function sharedViewer(
  pathname: string,
  cookies: Map<string, string>,
): string | undefined | Promise<string | undefined> {
  // The admin, and its 404 for anyone else, is never kept (ADR 34).
  if (ADMIN_PAGES.test(pathname)) return undefined;
  const token = cookies.get(sessionCookieName());
  if (!token) return cookies.get(CART_COOKIE) && showsCart(pathname) ? undefined : "visitor";
  const own = OWN_PAGES.test(pathname);
  const chapter = own ? undefined : /^\/chapter\/(\d{1,6})$/.exec(pathname)?.[1];
  if (!own && !chapter) return undefined;
  // From memory while the server follows the session events (ADR 49): a revoked session is forgotten at once
  // on the instance that revoked it and within 250 ms on the others. A kept session, the kept catalogue and a
  // lock that needs no query answer without a promise: the busiest path, a reader on a chapter they may read.
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
}

/** `sharedViewer` when the session, the catalogue or the chapter's lock must be asked for. */
async function askedViewer(token: string, chapter: string | undefined): Promise<string | undefined> {
  const user = await cachedSessionUser(token);
  if (!user) return undefined;
  if (!chapter) return ownGroup(user);
  const facts = await findChapter(Number(chapter), user);
  return facts && readerGroup(user, await chapterLock(facts, user));
}

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

/** The group of signed-in readers who see the same chapter page, or undefined when it is the reader's own. */
function readerGroup(user: KeptSessionUser, lock: Lock | undefined): string | undefined {
  if (!mayShareChapterPage(user, lock)) return undefined;
  const { fontSize, fontFamily, lineHeight } = user.readingSettings;
  // Readers still waiting for the chapter apart from those who may read it (members read ahead): one
  // group's page holds the text, the other's only the release date.
  return `reader${lock ? " waiting" : ""} ${fontSize} ${fontFamily} ${lineHeight}`;
}

/**
 * The pages that show comments or their counts (a chapter's comments, the table of contents), and their
 * route data: kept per the content and comments revisions together, every other page per the content's
 * alone, so a new comment retires these and never the chapter pages (ADR 47).
 */
export function showsComments(pathname: string): boolean {
  return COMMENT_PAGES.test(pathname);
}

const COMMENT_PAGES = /^\/(?:toc(?:\/volume\/\d{1,6})?|chapters|chapter\/\d{1,6}\/comments)(?:\.data)?$/;

/**
 * The revision a kept page at `pathname` is kept by (ADR 54): a chapter's pages by that chapter's text and
 * every broad change, so an edit of one chapter's text retires its pages and not the serial's; pages that show
 * no chapter's text or its facts (word count, edit time) by broad changes alone; every other page (the table
 * of contents, the home page, the feeds, the sitemap, a reader's own pages) by every change. With the comments'
 * counter added for the pages showing comments. Undefined while the database does not answer.
 */
export function pageRevision(pathname: string): number | undefined {
  const chapter = CHAPTER_PAGES.exec(pathname)?.[1];
  const content =
    chapter !== undefined
      ? chapterTextRevision(Number(chapter))
      : NO_CHAPTER_TEXT.test(pathname)
        ? broadRevision()
        : currentRevision();
  if (content === undefined || !showsComments(pathname)) return content;
  const comments = currentComments();
  return comments === undefined ? undefined : content + comments;
}

const CHAPTER_PAGES = /^\/chapter\/(\d{1,6})(?:\/comments)?(?:\.data)?$/;

/** Pages that show no chapter's text, word count or edit time (a chapter's card shows its number and title). */
const NO_CHAPTER_TEXT =
  /^\/(?:about|gallery|terms|privacy|wiki(?:\/[^/]+){0,2}|shop(?:\/product\/\d+)?|fundraiser(?:\/supporters)?)(?:\.data)?$|^\/card\//;

const ADMIN_PAGES = /^\/admin(\/|\.data$|$)/;

/**
 * A signed-in reader's own pages that show only their records, the content and the time (ADR 53): each is
 * kept for the reader's session until an event says something of theirs changed (`readerGeneration`), and
 * for a minute at most (the page cache's age limit: days left, streaks). Pages reading their query string
 * or showing another reader's records do not belong here.
 */
const OWN_PAGES = /^\/(?:account|achievements|settings|checkout)(?:\.data)?$/;

/** The pages under the shop's layout (app/routes.ts), and their route data (`.data`). */
const CART_PAGES = /^\/(shop|checkout)(\/|\.data$|$)/;

function showsCart(pathname: string): boolean {
  return CART_PAGES.test(pathname);
}
