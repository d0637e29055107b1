import { describe, expect, it } from "vitest";
import {
  adminDomainWrites,
  checkProject,
  featureGraph,
  featureOf,
  findCycles,
  routesWithoutRules,
  schemaTables,
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

  describe("domain writes in the admin", () => {
    const tables = schemaTables([
      {
        code: [
          'export const users = pgTable("users", { id: serial("id") });',
          'export const products = pgTable(\n  "products",\n  { id: serial("id") },\n);',
          'export const auditLog = pgTable("audit_log", { id: serial("id") });',
        ].join("\n"),
      },
    ]);

    it("reads the tables of the schema by their export and SQL names", () => {
      expect([...tables]).toEqual([
        ["users", "users"],
        ["products", "products"],
        ["auditLog", "audit_log"],
      ]);
    });

    it("refuses a file of the admin that writes products, naming the file and the table", () => {
      const file = "app/features/admin/product-editing.server.ts";
      const problem = `domain write in the admin: ${file} writes products (products); move it to its domain's folder (ADR 80)`;
      for (const code of [
        "await tx.insert(products).values(values);",
        "await db().update(products).set({ title }).where(eq(products.id, id));",
        "await tx.delete(schema.products).where(eq(products.id, id));",
        "await db().execute(sql`UPDATE products SET stock = stock - 1`);",
        "await tx.execute(sql`insert into products default values`);",
        'await tx.execute(sql`delete from "products" where false`);',
        'const edit = rowEditing(\n  { subject: "product" },\n  products,\n  products.id,\n  { written },\n);',
      ])
        expect(adminDomainWrites([{ file, code }], tables), code).toEqual([problem]);
    });

    it("allows the admin's own writes: the author role, audited through features/audit", () => {
      const code = [
        'import { recordAudit } from "~/features/audit/log.server";',
        "await tx.update(users).set({ role }).where(eq(users.id, account.id));",
        'await recordAudit(tx, actor, { action: "author.grant", subjectType: "user", subjectId: account.id });',
      ].join("\n");
      expect(adminDomainWrites([{ file: "app/features/admin/roles.server.ts", code }], tables)).toEqual([]);
    });

    it("refuses the author role's write from another file of the admin, and the audit log written by hand", () => {
      const code =
        "await tx.update(users).set({ suspended: true }); await tx.insert(auditLog).values(entry);";
      expect(adminDomainWrites([{ file: "app/features/admin/readers.server.ts", code }], tables)).toEqual([
        "domain write in the admin: app/features/admin/readers.server.ts writes audit_log (auditLog); move it to its domain's folder (ADR 80)",
        "domain write in the admin: app/features/admin/readers.server.ts writes users (users); move it to its domain's folder (ADR 80)",
      ]);
    });

    it("leaves reads, other objects' methods and files outside the admin alone", () => {
      const reads = [
        "await db().select().from(products).where(eq(products.id, id));",
        "seen.delete(id); hash.update(text); state.update(transform(state));",
        "// the form may update products later",
      ].join("\n");
      expect(
        adminDomainWrites([{ file: "app/features/admin/analytics.server.ts", code: reads }], tables),
      ).toEqual([]);
      const write = "await tx.insert(products).values(values);";
      expect(
        adminDomainWrites([{ file: "app/features/shop/product-editing.server.ts", code: write }], tables),
      ).toEqual([]);
    });
  });

  it("finds nothing in the project", () => {
    expect(checkProject(process.cwd())).toEqual([]);
  });
});
