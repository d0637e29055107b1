import { inArray } from "drizzle-orm";
import { Feed } from "feed";
import { db } from "#db/client.server";
import { chapters } from "#db/schema";
import { chapterStatus } from "~/features/chapters/access";
import { type ChapterFacts, getChapterCatalog } from "~/features/chapters/catalog.server";
import { chapterTitlesIn } from "~/features/chapters/title-in.server";
import { excerptOf } from "~/features/content/excerpt.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { defaultLanguage, type Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { localizedPath } from "~/i18n/urls";
import { releaseTime } from "~/lib/clock.server";
import { getEnv } from "~/lib/env.server";

/** How many releases a feed lists (the newest). */
export const FEED_SIZE = 50;
type FeedEntry = { chapter: ChapterFacts; description: string; content?: string };

/**
 * A feed of chapter entries in `language`, Atom or RSS 2.0, with the site's name and links; `urlLanguage`, the
 * language's URLs its links lead to (ADR 87), else the unprefixed ones.
 */
async function writeFeed(
  format: "atom" | "rss",
  entries: FeedEntry[],
  language: Language,
  self: { atom: string; rss?: string },
  now: Date,
  urlLanguage?: Language,
): Promise<string> {
  const origin = getEnv().origin;
  const page = (path: string) => `${origin}${urlLanguage ? localizedPath(urlLanguage, path) : path}`;
  const [site, titleOf] = await Promise.all([getSiteSettings(), chapterTitlesIn(language)]);
  const t = serverTranslator(language);
  const feed = new Feed({
    id: page("/"),
    link: page("/"),
    title: site.title,
    description: site.tagline,
    language,
    updated: entries[0]?.chapter.releaseAt ?? now,
    author: { name: site.author, link: page("/about") },
    feedLinks: self,
    copyright: `© ${site.author}`,
    generator: false,
  });
  for (const { chapter, description, content } of entries) {
    const link = page(`/chapter/${chapter.number}`);
    feed.addItem({
      // The chapter's one id in every language's feed, its link in the feed's language.
      id: `${origin}/chapter/${chapter.number}`,
      link,
      title: t("feed.itemTitle", { number: chapter.number, title: titleOf(chapter) }),
      date: chapter.releaseAt,
      published: chapter.releaseAt,
      description,
      ...(content !== undefined && { content }),
    });
  }
  return format === "atom" ? feed.atom1() : feed.rss2();
}

/** The newest first: by release, then by number. */
export const newestFirst = (a: ChapterFacts, b: ChapterFacts) =>
  b.releaseAt.getTime() - a.releaseAt.getTime() || b.number - a.number;

/** The Markdown texts of some chapters, in one query. */
export async function textsOf(ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db()
    .select({ id: chapters.id, bodyMd: chapters.bodyMd })
    .from(chapters)
    .where(inArray(chapters.id, ids));
  return new Map(rows.map((row) => [row.id, row.bodyMd]));
}

/**
 * The releases feed (ADR 44): every released chapter, newest first, with its title, date, link and an
 * excerpt. What a visitor cannot read (a paid chapter) gives no text: its entry says it can be unlocked; a
 * scheduled chapter is not there at all (the release clock decides, as for every page).
 */
export async function releasesFeed(
  format: "atom" | "rss",
  now = releaseTime(),
  urlLanguage?: Language,
): Promise<string> {
  const origin = getEnv().origin;
  // A language's feed (`/es/feed.atom`) is written in it; the unprefixed one in the original's.
  const language = urlLanguage ?? defaultLanguage;
  const base = urlLanguage ? `/${urlLanguage}` : "";
  const released = (await getChapterCatalog()).published
    .filter((chapter) => chapterStatus(chapter, now) !== "locked")
    .sort(newestFirst)
    .slice(0, FEED_SIZE);
  const texts = await textsOf(
    released.filter((chapter) => chapterStatus(chapter, now) === "free").map((chapter) => chapter.id),
  );
  const t = serverTranslator(language);
  const entries = released.map((chapter) => {
    const body = texts.get(chapter.id);
    return {
      chapter,
      description: body === undefined ? t("feed.unlock", { count: chapter.coinsRequired }) : excerptOf(body),
    };
  });
  return writeFeed(
    format,
    entries,
    language,
    { atom: `${origin}${base}/feed.atom`, rss: `${origin}${base}/feed.rss` },
    now,
    urlLanguage,
  );
}

export { excerptOf, writeFeed };
