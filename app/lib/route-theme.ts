/** Per-route colour themes, chosen by path prefix (docs/product-rules.md "Global navigation"). */
export const routeThemes = ["home", "chapters", "characters", "world", "items", "shop", "about"] as const;
export type RouteTheme = (typeof routeThemes)[number];

const prefixes: [prefix: string, theme: RouteTheme][] = [
  ["/chapters", "chapters"],
  ["/wiki/characters", "characters"],
  ["/wiki/world", "world"],
  ["/wiki/items", "items"],
  ["/shop", "shop"],
  ["/about", "about"],
];

export function themeForPath(pathname: string): RouteTheme {
  for (const [prefix, theme] of prefixes) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return theme;
  }
  return "home";
}
