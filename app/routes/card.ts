import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { cardPng } from "~/features/site/cards.server";
import { getSiteSettings } from "~/features/site/queries.server";
import type { Route } from "./+types/card";

/**
 * Link preview cards (ADR 46): `/card/site.png`, the site's, and `/card/chapter/N.png`, a published chapter's
 * number and title (what the table of contents shows, also for a chapter not yet released). PNG, kept by
 * caches for a day.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const site = await getSiteSettings();
  let facts: { site: string; number?: number; title: string } | undefined;
  if (params.file === undefined) facts = { site: site.title, title: site.tagline };
  else {
    const number = /^([1-9]\d{0,5})\.png$/.exec(params.file)?.[1];
    const chapter = number ? (await getChapterCatalog()).byNumber.get(Number(number)) : undefined;
    if (chapter?.status === "published")
      facts = { site: site.title, number: chapter.number, title: chapter.title };
  }
  if (!facts) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
  return new Response(new Uint8Array(await cardPng(facts)), {
    headers: { "content-type": "image/png", "cache-control": "public, max-age=86400" },
  });
}
