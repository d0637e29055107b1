/**
 * The path matcher of the route table (app/lib/route-rules.ts): the same answer as React Router's
 * `matchRoutes` for the table's patterns (static segments, `:param`, a trailing `*`), at a kept page's pace.
 * Patterns are compiled once; a path is tried only against the routes that can start with its first segment,
 * best ranked first, as React Router ranks them. Like React Router, it ignores case and trailing slashes and
 * matches the percent-decoded path: `/SHOP` and `/sh%6Fp` are the shop page, and get its rules.
 */

export type Pattern<T> = {
  /** The route's full path, without a leading slash ("" for the index). */
  path: string;
  index: boolean;
  value: T;
};

export type PathMatch<T> = { value: T; params: Readonly<Record<string, string>> };

type Compiled<T> = { regex: RegExp; names: string[]; score: number; order: number; value: T };

/** React Router's ranking (`computeScore`): static segments beat parameters, which beat a splat. */
function score(path: string, index: boolean): number {
  const segments = path === "" ? [""] : path.split("/");
  let total = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    total += segment.startsWith(":") ? 3 : segment === "" ? 1 : 10;
  }
  return total;
}

function compile<T>(pattern: Pattern<T>, order: number): Compiled<T> {
  if (/[?()]/.test(pattern.path))
    throw new Error(`route "${pattern.path}": optional segments are not supported`);
  const names: string[] = [];
  const parts = pattern.path === "" ? [] : pattern.path.split("/");
  const source = parts
    .map((segment) => {
      if (segment === "*") {
        names.push("*");
        return "(.*)";
      }
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      if (segment.includes("*")) throw new Error(`route "${pattern.path}": a splat is a whole last segment`);
      return segment.replace(/[\\.*+^${}|()[\]]/g, "\\$&");
    })
    .join("/");
  const regex = new RegExp(`^/${source}${source.endsWith("(.*)") ? "$" : "/*$"}`, "i");
  return { regex, names, score: score(pattern.path, pattern.index), order, value: pattern.value };
}

/** React Router's `decodePath`: each segment decoded, a decoded slash kept as `%2F`; a bad escape left as sent. */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return pathname;
  }
}

function firstSegment(pathname: string): string {
  const end = pathname.indexOf("/", 1);
  return (end < 0 ? pathname.slice(1) : pathname.slice(1, end)).toLowerCase();
}

/** A matcher for `patterns`: the best-ranked one matching a path (a page's, without `.data`), or undefined. */
export function pathMatcher<T>(
  patterns: readonly Pattern<T>[],
): (pathname: string) => PathMatch<T> | undefined {
  const compiled = patterns.map(compile);
  const byRank = (a: Compiled<T>, b: Compiled<T>) => b.score - a.score || a.order - b.order;
  // Routes whose first segment is a parameter or a splat can match any path: they join every list.
  const firsts = patterns.map(({ path }) => path.split("/", 1)[0]?.toLowerCase() ?? "");
  const anywhere = compiled.filter((_, i) => /^[:*]/.test(firsts[i] ?? ""));
  const lists = new Map<string, Compiled<T>[]>();
  compiled.forEach((route, i) => {
    const first = firsts[i] ?? "";
    if (!/^[:*]/.test(first)) lists.set(first, [...(lists.get(first) ?? []), route]);
  });
  for (const [first, list] of lists) lists.set(first, [...list, ...anywhere].sort(byRank));
  const fallback = [...anywhere].sort(byRank);
  return (raw) => {
    const pathname = raw.includes("%") ? decodePath(raw) : raw;
    for (const route of lists.get(firstSegment(pathname)) ?? fallback) {
      const found = route.regex.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = found[i + 1] ?? "";
      });
      return { value: route.value, params };
    }
    return undefined;
  };
}
