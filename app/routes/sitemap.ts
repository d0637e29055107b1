import { robots, sitemap } from "~/features/feeds/sitemap.server";
import type { Route } from "./+types/sitemap";

/** `/sitemap.xml` and `/robots.txt` for search engines (issue 21), kept by caches for an hour. */
export async function loader({ request }: Route.LoaderArgs) {
  const xml = new URL(request.url).pathname === "/sitemap.xml";
  return new Response(xml ? await sitemap() : robots(), {
    headers: {
      "content-type": xml ? "application/xml; charset=utf-8" : "text/plain; charset=utf-8",
      "cache-control": "public, max-age=3600",
    },
  });
}
