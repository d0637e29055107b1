import { releasesFeed } from "~/features/feeds/releases.server";
import { pathLanguage, unprefixedPath } from "~/i18n/urls";
import type { Route } from "./+types/feed";

const types = {
  "/feed.atom": ["atom", "application/atom+xml; charset=utf-8"],
  "/feed.rss": ["rss", "application/rss+xml; charset=utf-8"],
} as const;

/**
 * The releases feed as Atom or RSS 2.0 (ADR 44), for feed readers; a kept public answer for 5 minutes. At a
 * language's URL (`/es/feed.atom`, ADR 87) it is written in that language and links its pages.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const [format, type] = types[unprefixedPath(pathname) as keyof typeof types] ?? types["/feed.atom"];
  return new Response(await releasesFeed(format, undefined, pathLanguage(pathname) ?? undefined), {
    headers: { "content-type": type, "cache-control": "public, max-age=300" },
  });
}
