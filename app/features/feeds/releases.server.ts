import { inArray } from "drizzle-orm";
import { Feed } from "feed";
import { db } from "#db/client.server";
import { chapters } from "#db/schema";
import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { renderMarkdown } from "~/features/content/markdown.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { releaseTime } from "~/lib/clock.server";
import { getEnv } from "~/lib/env.server";

/** How many releases a feed lists (the newest). */
export const FEED_SIZE = 50;
/** An excerpt's most characters, cut at a word. */
const EXCERPT_CHARS = 280;

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The text of an HTML character reference (the sanitiser writes `&#x26;` and `&amp;` alike). */
function character(reference: string): string {
  if (reference.startsWith("#x")) return String.fromCodePoint(Number.parseInt(reference.slice(2), 16));
  if (reference.startsWith("#")) return String.fromCodePoint(Number(reference.slice(1)));
  return named[reference] ?? "";
}

/** A chapter's opening as plain text: its sanitised HTML without tags, cut at a word under `max` characters. */
export function excerptOf(markdown: string, max = EXCERPT_CHARS): string {
  const text = renderMarkdown(markdown)
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (_, reference: string) => character(reference))
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1))}…`;
}

/**
 * The releases feed (issue 21): every released chapter, newest first, with its title, date, link and an
 * excerpt. What a visitor cannot read (a paid chapter) gives no text: its entry says it can be unlocked; a
 * scheduled chapter is not there at all (the release clock decides, as for every page).
 */
export async function releasesFeed(format: "atom" | "rss", now = releaseTime()): Promise<string> {
  const origin = getEnv().origin;
  const [catalog, site] = await Promise.all([getChapterCatalog(), getSiteSettings()]);
  const released = catalog.published
    .filter((chapter) => chapterStatus(chapter, now) !== "locked")
    .sort((a, b) => b.releaseAt.getTime() - a.releaseAt.getTime() || b.number - a.number)
    .slice(0, FEED_SIZE);
  const free = released
    .filter((chapter) => chapterStatus(chapter, now) === "free")
    .map((chapter) => chapter.id);
  const texts = free.length
    ? await db()
        .select({ id: chapters.id, bodyMd: chapters.bodyMd })
        .from(chapters)
        .where(inArray(chapters.id, free))
    : [];
  const t = serverTranslator(defaultLanguage);
  const feed = new Feed({
    id: `${origin}/`,
    link: `${origin}/`,
    title: site.title,
    description: site.tagline,
    language: defaultLanguage,
    updated: released[0]?.releaseAt ?? now,
    author: { name: site.author, link: `${origin}/about` },
    feedLinks: { atom: `${origin}/feed.atom`, rss: `${origin}/feed.rss` },
    copyright: `© ${site.author}`,
    generator: false,
  });
  for (const chapter of released) {
    const link = `${origin}/chapter/${chapter.number}`;
    const body = texts.find((row) => row.id === chapter.id)?.bodyMd;
    feed.addItem({
      id: link,
      link,
      title: t("feed.itemTitle", { number: chapter.number, title: chapter.title }),
      date: chapter.releaseAt,
      published: chapter.releaseAt,
      description: body === undefined ? t("feed.unlock", { count: chapter.coinsRequired }) : excerptOf(body),
    });
  }
  return format === "atom" ? feed.atom1() : feed.rss2();
}
