import type { RouteConfigEntry } from "@react-router/dev/routes";
import { unprefixedPath } from "../i18n/urls";
import { type PathMatch, pathMatcher } from "./route-match";

/**
 * Each route's rules, declared once beside the route in app/routes.ts (ADR 73): who may share its kept page
 * and what retires it, the query it reads, whether it is private, its body limit and its secrets. The page
 * cache, the body limit, robots.txt and `noindex`, and the log's redaction all read them from the one table;
 * a route without them does not compile (`route`'s third argument), and does not build (`routeTable` refuses
 * it when app/routes.ts is read).
 */
export type RouteRules = (KeptPage | NotKept) & {
  /** A reader's own page, a form, a payment step or machinery: robots.txt disallows it, its page says noindex. */
  private: boolean;
  /** The largest request body it takes, in bytes (`FORM_LIMIT` when not said). */
  body?: number;
  /**
   * The parameters whose values are secrets, never written to a log: path parameters (`"token"` for
   * `feed/private/:token`) and query parameters (`?token=`), besides the credential names every URL's
   * query is redacted of (app/lib/redact.ts).
   */
  secrets?: readonly string[];
};

/** A page the page cache never keeps (server/page-cache.ts): every request is answered by its route. */
type NotKept = { share: "none" };

/**
 * A page the page cache may keep, when a render marks it shareable (app/lib/shareable.ts). `share` says who
 * is served one kept copy: "visitors", every visitor alike (a signed-in reader's is rendered for them);
 * "own", the visitors' and each signed-in reader's own for their session (ADR 53); "chapter", the visitors'
 * and one for all signed-in readers who may read the chapter `:id` alike, or all wait for it (the page only,
 * not its route data); "access", the visitors' and one for all signed-in readers with the same access to the
 * chapters (membership tier and unlocks), the page's only personal facts, their progress and choices fetched
 * by the parts that show them, or named in the group (a balance, a cart), or the page rendered for a reader
 * with more of their own on it, a subscription (ADR 101, ADR 102; the page only, not its route data).
 */
type KeptPage = {
  share: "visitors" | "own" | "chapter" | "access";
  /**
   * Which content changes retire a kept copy (ADR 54): "chapter", the text of the chapter `:id` and every
   * broad change; "broad", broad changes only (the page shows no chapter's text, word count or edit time);
   * "any", every change.
   */
  retiredBy: "chapter" | "broad" | "any";
  /** It shows comments or their counts: a new comment retires it too (ADR 47). */
  comments?: true;
  /**
   * The query parameters it reads, each with the values that change the page (any other value renders the
   * default): everything else in a query string is dropped from a kept page's key (ADR 62).
   */
  query?: Readonly<Record<string, readonly string[]>>;
  /**
   * The query parameters it reads with any value (a search, ADR 92): a request with one not empty is rendered
   * as asked and never kept; an empty one is dropped as any other parameter.
   */
  search?: readonly string[];
  /**
   * It shows the cart bar: a visitor with a cart cookie gets their own (ADR 24); on an access page, signed-in
   * readers share it only with the same cart (ADR 102).
   */
  cart?: true;
  /** An access page that shows the reader's coin balance: readers share it only with the same balance. */
  balance?: true;
  /** An access page that opens the volume the reader would continue in: the chapter they read last joins the group. */
  latest?: true;
  /** An access page that shows the reader's running subscription: a subscriber's is rendered for them (ADR 102). */
  subscription?: true;
};

export const KB = 1024;
/** A form's body: what a route takes unless its rules say more. */
export const FORM_LIMIT = 64 * KB;

/** One entry of the table: a route of React Router's config with its rules, or a path Express answers. */
export type RouteEntry = {
  path?: string;
  index?: true;
  file?: string;
  id?: string;
  rules?: RouteRules;
  children?: RouteEntry[];
};

type RouteOptions = { id?: string };

/** A route, as React Router's `route()`, with its rules. */
export function route(path: string, file: string, rules: RouteRules, options: RouteOptions = {}): RouteEntry {
  return { path, file, rules, ...options };
}

/** The index route, as React Router's `index()`, with its rules. */
export function index(file: string, rules: RouteRules, options: RouteOptions = {}): RouteEntry {
  return { index: true, file, rules, ...options };
}

/** A layout around routes, as React Router's `layout()`: no URL of its own, so no rules. */
export function layout(file: string, children: RouteEntry[]): RouteEntry {
  return { file, children };
}

/** A path Express answers before React Router (server/app.ts): in the table for its rules alone. */
export function served(path: string, rules: RouteRules): RouteEntry {
  return { path, rules };
}

/** A request's route: its rules, its id (React Router's) and its parameters, from the decoded path. */
export type RouteMatch = PathMatch<{ id: string; path: string; rules: RouteRules }>;

/** The route of a request's path (a page or its route data), with its rules. */
export type MatchRoute = (pathname: string) => RouteMatch | undefined;

type Flat = { id: string; path: string; index: boolean; rules: RouteRules };

const SHARES = new Set(["none", "visitors", "own", "chapter", "access"]);
const RETIRED_BY = new Set(["chapter", "broad", "any"]);

/** Why `rules` are not a route's rules, or undefined when they are (for JavaScript and casts the types miss). */
function rulesProblem(rules: RouteRules | undefined): string | undefined {
  if (!rules || typeof rules !== "object") return "no rules";
  if (!SHARES.has(rules.share)) return `share ${JSON.stringify(rules.share)}`;
  if (rules.share !== "none" && !RETIRED_BY.has(rules.retiredBy)) return "a kept page without retiredBy";
  if (typeof rules.private !== "boolean") return "private not said";
  if (rules.body !== undefined && !(Number.isInteger(rules.body) && rules.body > 0)) return "a body limit";
  return undefined;
}

/** React Router's default route id: the file without its extension. */
const defaultId = (file: string) => file.replace(/\.[^/.]+$/, "");

function joinPath(parent: string, path: string | undefined): string {
  if (path === undefined) return parent;
  return [parent, path].filter(Boolean).join("/");
}

/** Every path of the table with its rules, and React Router's config without them (or Express's paths). */
function flatten(entries: RouteEntry[], parent = ""): { flat: Flat[]; config: RouteConfigEntry[] } {
  const flat: Flat[] = [];
  const config: RouteConfigEntry[] = [];
  for (const entry of entries) {
    const path = joinPath(parent, entry.path);
    const below = flatten(entry.children ?? [], path);
    flat.push(...below.flat);
    const name = entry.index ? `index ${entry.file}` : `"${path}"`;
    if (entry.path !== undefined || entry.index) {
      const problem = rulesProblem(entry.rules);
      if (problem) throw new Error(`app/routes.ts: route ${name} has ${problem}: declare its rules (ADR 73)`);
      flat.push({
        id: entry.id ?? (entry.file ? defaultId(entry.file) : `served:${path}`),
        path,
        index: entry.index === true,
        rules: entry.rules as RouteRules,
      });
    } else if (entry.rules) {
      throw new Error(`app/routes.ts: layout ${entry.file} has rules; its routes carry them`);
    }
    if (!entry.file) continue;
    config.push({
      file: entry.file,
      ...(entry.index ? { index: true } : {}),
      ...(entry.path !== undefined ? { path: entry.path } : {}),
      ...(entry.id ? { id: entry.id } : {}),
      ...(entry.children ? { children: below.config } : {}),
    });
  }
  return { flat, config };
}

/** A `.data` request's page: `/x.data` is `/x`'s route data, `/_root.data` the home page's. */
export function pageOf(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const page = pathname.slice(0, -".data".length);
  return page === "/_root" ? "/" : page;
}

/**
 * The static part of a path before its first parameter, as robots.txt reads a rule (a prefix): `/account`,
 * `/orders/` for `orders/:id`.
 */
function staticPrefix(path: string): string {
  const segments = path.split("/");
  const dynamic = segments.findIndex((segment) => /^[:*]/.test(segment));
  return dynamic < 0 ? `/${path}` : `/${segments.slice(0, dynamic).join("/")}/`;
}

/** A path of the route, each parameter filled in: to check no public route falls under a private prefix. */
const samplePath = (path: string) => `/${path.replace(/(^|\/)[:*][^/]*/g, "$1x")}`;

export type RouteTable = ReturnType<typeof routeTable>;

/** The table's rules, compiled once, as every consumer asks for them. */
export function routeTable(entries: RouteEntry[]) {
  const { flat, config } = flatten(entries);
  const matchPage = pathMatcher(
    flat.map(({ id, path, index, rules }) => ({ path, index, value: { id, path, rules } })),
  );
  // The page cache asks for one path's route a few times in a row (viewer, query, revision).
  let last: { pathname: string; found: RouteMatch | undefined } | undefined;
  const match: MatchRoute = (pathname) => {
    if (last?.pathname === pathname) return last.found;
    // A language's URL (`/es/chapter/1`, i18n/urls.ts) is its page's route, with the same rules.
    const found = matchPage(pageOf(unprefixedPath(pathname)));
    last = { pathname, found };
    return found;
  };

  const prefixes = [...new Set(flat.filter((route) => route.rules.private).map((r) => staticPrefix(r.path)))];
  const disallowed = prefixes
    .filter((prefix) => !prefixes.some((other) => other !== prefix && prefix.startsWith(other)))
    .sort();
  for (const route of flat) {
    const sample = samplePath(route.path);
    const under = disallowed.find((prefix) => sample.startsWith(prefix));
    if (!route.rules.private && under)
      throw new Error(`app/routes.ts: public route "${route.path}" is under the private prefix ${under}`);
  }

  // The log's secrets: each route's secret path segments (by position) and query parameter names.
  const secretSegments = new Map<string, number[]>();
  const secretQuery = new Map<string, readonly string[]>();
  for (const route of flat) {
    const secrets = route.rules.secrets ?? [];
    const segments = route.path.split("/");
    const positions = segments.flatMap((segment, i) =>
      segment.startsWith(":") && secrets.includes(segment.slice(1)) ? [i + 1] : [],
    );
    if (positions.length) secretSegments.set(route.id, positions);
    const query = secrets.filter((name) => !segments.includes(`:${name}`));
    if (query.length) secretQuery.set(route.id, query);
  }

  return {
    /** React Router's route config (app/routes.ts's default export): the routes without their rules. */
    config,
    /** Every route's path and rules, as the table lists them (layouts' routes included, each once). */
    routes: flat as readonly Flat[],
    /** The route a request's path (a page or its route data, `.data`) is answered by. */
    match,
    /** The most a request body to `pathname` may hold. */
    bodyLimit: (pathname: string) => match(pathname)?.value.rules.body ?? FORM_LIMIT,
    /** Whether the page at `pathname` is private (its page says noindex). */
    isPrivate: (pathname: string) => match(pathname)?.value.rules.private === true,
    /** robots.txt's `Disallow` prefixes: the private routes', none covering a public route. */
    disallowed: disallowed as readonly string[],
    /** Where the secrets of a URL's path are (segment positions, 1 the first) and its secret query names. */
    secrets: (pathname: string) => {
      const id = match(pathname)?.value.id;
      return {
        segments: (id && secretSegments.get(id)) || NONE,
        query: (id && secretQuery.get(id)) || NONE,
      };
    },
  };
}

const NONE: readonly never[] = [];
