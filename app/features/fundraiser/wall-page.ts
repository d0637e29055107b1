import { wallTiers } from "./wall-tiers";

/** /fundraiser/supporters: 50 a page, newest first, filtered by one wall label. */
export const WALL_PAGE_SIZE = 50;
/** The highest page number the wall's URLs take (the page cache keys only these). */
export const WALL_MAX_PAGE = 999;

export type WallQuery = { page: number; tier?: (typeof wallTiers)[number] };

/** `?page=&tier=` in their one spelling; anything else reads as the default (page 1, every tier). */
export function parseWallQuery(params: URLSearchParams): WallQuery {
  const pageText = params.get("page") ?? "";
  const page = /^[1-9]\d{0,2}$/.test(pageText) ? Number(pageText) : 1;
  const tierText = params.get("tier");
  const tier = wallTiers.find((value) => value === tierText);
  return tier ? { page, tier } : { page };
}

/** The link to a page of the wall, with the filter kept. */
export function wallHref({ page, tier }: WallQuery): string {
  const params = new URLSearchParams();
  if (tier) params.set("tier", tier);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return `/fundraiser/supporters${query ? `?${query}` : ""}`;
}

/** The page links to show: all of up to 7 pages, else the first, the last and two around the current one. */
export function pageNumbers(page: number, pages: number): (number | "gap")[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, index) => index + 1);
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((number) => number >= 1 && number <= pages)
    .sort((a, b) => a - b);
  const out: (number | "gap")[] = [];
  for (const number of shown) {
    const last = out[out.length - 1];
    if (typeof last === "number" && number - last > 1) out.push("gap");
    out.push(number);
  }
  return out;
}
