import { robots, sitemap } from "~/features/feeds/sitemap.server";
import { unprefixedPath } from "~/i18n/urls";
import { siteRoutes } from "~/routes";
import type { Route } from "./+types/sitemap";

/**
 * `/sitemap.xml` and `/robots.txt` for search engines (ADR 44), kept by caches for an hour. robots.txt
 * disallows the private routes (their rules, app/routes.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
  // One sitemap lists every language's addresses: a language's URL of it is the same file.
  const xml = unprefixedPath(new URL(request.url).pathname) === "/sitemap.xml";
  return new Response(xml ? await sitemap() : robots(siteRoutes.disallowed), {
    headers: {
      "content-type": xml ? "application/xml; charset=utf-8" : "text/plain; charset=utf-8",
      "cache-control": "public, max-age=3600",
    },
  });
}
