import { releasesFeed } from "~/features/feeds/releases.server";
import type { Route } from "./+types/feed";

const types = {
  "/feed.atom": ["atom", "application/atom+xml; charset=utf-8"],
  "/feed.rss": ["rss", "application/rss+xml; charset=utf-8"],
} as const;

/** The releases feed as Atom or RSS 2.0 (ADR 44), for feed readers; a kept public answer for 5 minutes. */
export async function loader({ request }: Route.LoaderArgs) {
  const [format, type] = types[new URL(request.url).pathname as keyof typeof types] ?? types["/feed.atom"];
  return new Response(await releasesFeed(format), {
    headers: { "content-type": type, "cache-control": "public, max-age=300" },
  });
}
