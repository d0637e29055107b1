import { data } from "react-router";
import { privateFeed } from "~/features/feeds/private.server";
import type { Route } from "./+types/feed-private";

/** A reader's private feed (ADR 44), by its token: the full text of what they may read; else a 404. */
export async function loader({ params }: Route.LoaderArgs) {
  const xml = await privateFeed(params.token);
  if (xml === undefined) throw data(null, { status: 404 });
  return new Response(xml, {
    headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "private, no-store" },
  });
}
