import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { MatchRoute } from "~/lib/route-rules";

/**
 * The query parameters a shareable page reads, with each value that changes the page (a missing or other
 * value renders the page's default), as its route says (its `query` rule, app/routes.ts). Everything else
 * in a query string leaves the page as it is, so the page cache (server/page-cache.ts) keys and renders such
 * a request as the page without it.
 */
function parametersOf(match: MatchRoute, pathname: string) {
  const rules = match(pathname)?.value.rules;
  const kept = rules?.share === "none" ? undefined : rules;
  return { query: kept?.query ?? {}, search: kept?.search ?? [] };
}

type RouteTree = {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteTree[];
};

function routeTree(routes: ServerBuild["routes"]): RouteTree[] {
  const children = new Map<string | undefined, RouteTree[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive });
    children.set(route.parentId, siblings);
  }
  const attach = (nodes: RouteTree[]): RouteTree[] =>
    nodes.map((node) => {
      const below = children.get(node.id);
      return below && !node.index ? { ...node, children: attach(below) } : node;
    });
  return attach(children.get(undefined) ?? []);
}

/** Paths whose matching routes are kept at most (a few hundred bytes each). */
const MATCHES_KEPT = 10_000;

/**
 * The canonical query string (without `?`, "" for none) of a request for `pathname`, or undefined when the
 * request cannot be answered as any kept page. Route data (`/x.data`) keeps React Router's `_routes` filter,
 * reduced to the ids of routes that match the page, sorted: React Router ignores the others and the order,
 * so any spelling of one filter is one page.
 */
export function queryCanonicaliser(
  routes: ServerBuild["routes"],
  match: MatchRoute,
): (pathname: string, query: string) => string | undefined {
  const tree = routeTree(routes);
  // `matchRoutes` flattens and ranks the whole route table on each call (about a millisecond): the ids a
  // path matches are kept, so route data is canonicalised at a kept page's pace. Bounded: an invented path
  // costs one match, and a full map starts again.
  const matchedIds = new Map<string, Set<string>>();
  const idsMatching = (page: string) => {
    let ids = matchedIds.get(page);
    if (!ids) {
      if (matchedIds.size >= MATCHES_KEPT) matchedIds.clear();
      ids = new Set(
        (matchRoutes(tree as RouteObject[], page) ?? []).map((match) => match.route.id as string),
      );
      matchedIds.set(page, ids);
    }
    return ids;
  };
  return (pathname, query) => {
    const routeData = pathname.endsWith(".data");
    const page = routeData ? pathname.slice(0, -".data".length).replace(/^\/_root$/, "/") : pathname;
    const params = new URLSearchParams(query);
    const read = parametersOf(match, pathname);
    // A search (any text) is rendered as asked: keeping each would let anyone fill the cache.
    if (read.search.some((name) => params.get(name)?.trim())) return undefined;
    const parts: string[] = [];
    for (const [name, values] of Object.entries(read.query)) {
      const value = params.get(name);
      if (value !== null && values.includes(value)) parts.push(`${name}=${encodeURIComponent(value)}`);
    }
    const filter = routeData ? params.get("_routes") : null;
    if (filter !== null) {
      const matched = idsMatching(page);
      const ids = [...new Set(filter.split(","))].filter((id) => matched.has(id)).sort();
      // No matching id loads no route at all, which no spelling without the filter says: not kept.
      if (ids.length === 0) return undefined;
      parts.push(`_routes=${ids.map(encodeURIComponent).join(",")}`);
    }
    return parts.join("&");
  };
}
