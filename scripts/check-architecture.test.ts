import { describe, expect, it } from "vitest";
import {
  checkProject,
  featureGraph,
  featureOf,
  findCycles,
  routesWithoutRules,
  specifiers,
  strayStylesheets,
} from "./check-architecture";

describe("architecture check", () => {
  it("reads static, re-exported, side-effect and dynamic imports", () => {
    const code = [
      'import { a } from "~/features/auth/session.server";',
      'import type { B } from "../reader/access.server";',
      'export { c } from "./c";',
      'import "~/i18n/full-catalogue";',
      'const d = () => import("~/features/shop/cards");',
    ].join("\n");
    expect(specifiers(code)).toEqual([
      "~/features/auth/session.server",
      "../reader/access.server",
      "./c",
      "~/i18n/full-catalogue",
      "~/features/shop/cards",
    ]);
  });

  it("resolves aliases and relative paths to the feature they point into", () => {
    const file = "app/features/reader/access.server.ts";
    expect(featureOf(file, "~/features/auth/session.server")).toBe("auth");
    expect(featureOf(file, "../auth/session.server")).toBe("auth");
    expect(featureOf(file, "./purchase.server")).toBe("reader");
    expect(featureOf(file, "~/lib/words")).toBeUndefined();
    expect(featureOf(file, "#db/schema")).toBeUndefined();
    expect(featureOf(file, "drizzle-orm")).toBeUndefined();
  });

  it("names a loop between two features with the file behind each arrow", () => {
    const graph = featureGraph([
      {
        file: "app/features/auth/session.server.ts",
        code: 'import { x } from "~/features/reader/settings";',
      },
      {
        file: "app/features/reader/access.server.ts",
        code: 'import type { U } from "../auth/session.server";',
      },
    ]);
    expect(findCycles(graph)).toEqual([
      "feature cycle: auth -> reader (app/features/auth/session.server.ts) -> auth (app/features/reader/access.server.ts)",
    ]);
  });

  it("finds a loop through a third feature and passes a graph that only points one way", () => {
    const file = (from: string, to: string) => ({
      file: `app/features/${from}/index.ts`,
      code: `import { x } from "~/features/${to}/index";`,
    });
    expect(findCycles(featureGraph([file("a", "b"), file("b", "c")]))).toEqual([]);
    expect(findCycles(featureGraph([file("a", "b"), file("b", "c"), file("c", "a")]))).toHaveLength(1);
  });

  it("refuses a stylesheet imported outside the root, which no <Links /> would write", () => {
    expect(
      strayStylesheets([
        { file: "app/root.tsx", code: 'import stylesheet from "./app.css?url";' },
        { file: "app/routes/wiki.tsx", code: 'import "./wiki.css";\nimport x from "~/ui/x.css?url";' },
      ]),
    ).toEqual([
      "stylesheet outside app/root.tsx: app/routes/wiki.tsx imports ./wiki.css",
      "stylesheet outside app/root.tsx: app/routes/wiki.tsx imports ~/ui/x.css?url",
    ]);
  });

  it("refuses a route table that adds a route without rules", () => {
    const table = (imports: string, routes: string) =>
      `${imports}\nexport const siteRoutes = routeTable([${routes}]);\nexport default siteRoutes.config satisfies RouteConfig;`;
    const ours = 'import { index, route, routeTable } from "./lib/route-rules";';
    expect(
      routesWithoutRules(
        table(
          `import type { RouteConfig } from "@react-router/dev/routes";\n${ours}`,
          'index("routes/home.tsx", page)',
        ),
      ),
    ).toEqual([]);
    expect(
      routesWithoutRules(
        table(
          `import { type RouteConfig, route as plain } from "@react-router/dev/routes";\n${ours}`,
          'plain("new-page", "routes/new-page.tsx")',
        ),
      ),
    ).toEqual([
      "app/routes.ts: imports route as plain from @react-router/dev/routes, which take no rules: use app/lib/route-rules.ts",
    ]);
    expect(
      routesWithoutRules(
        'import { route } from "@react-router/dev/routes";\nexport default [route("a", "b.tsx")];',
      ),
    ).toEqual([
      "app/routes.ts: imports route from @react-router/dev/routes, which take no rules: use app/lib/route-rules.ts",
      "app/routes.ts: the default export is not the route table's config (`siteRoutes.config`)",
    ]);
  });

  it("finds nothing in the project", () => {
    expect(checkProject(process.cwd())).toEqual([]);
  });
});
