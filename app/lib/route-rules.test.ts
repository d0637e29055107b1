import { describe, expect, it } from "vitest";
import { FORM_LIMIT, index, layout, type RouteEntry, route, routeTable, served } from "./route-rules";

const page = { share: "visitors", retiredBy: "any", private: false } as const;

describe("routeTable", () => {
  it("refuses a route added without its rules: app/routes.ts neither compiles nor builds", () => {
    const table = (added: RouteEntry) => () => routeTable([index("routes/home.tsx", page), added]);
    // @ts-expect-error a route's rules are its third argument, and required
    expect(table(route("new-page", "routes/new-page.tsx"))).toThrow(
      'app/routes.ts: route "new-page" has no rules: declare its rules (ADR 73)',
    );
    // @ts-expect-error a kept page says what retires it
    expect(table(route("new-page", "routes/new-page.tsx", { share: "visitors", private: false }))).toThrow(
      "a kept page without retiredBy",
    );
    // @ts-expect-error every route says whether it is private
    expect(table(route("new-page", "routes/new-page.tsx", { share: "none" }))).toThrow("private not said");
    // @ts-expect-error the same inside a layout
    expect(table(layout("routes/shop/layout.tsx", [route("shop/new", "routes/shop/new.tsx")]))).toThrow(
      'route "shop/new" has no rules',
    );
    expect(table(route("new-page", "routes/new-page.tsx", page))).not.toThrow();
  });

  it("refuses a public route under a private one's robots.txt prefix", () => {
    expect(() =>
      routeTable([
        route("account", "routes/account.tsx", { share: "none", private: true }),
        route("account/public", "routes/public.tsx", page),
      ]),
    ).toThrow('public route "account/public" is under the private prefix /account');
  });

  it("gives React Router its config without the rules, and Express's paths not at all", () => {
    const table = routeTable([
      index("routes/home.tsx", page),
      layout("routes/admin/layout.tsx", [
        route("admin", "routes/admin/index.tsx", { share: "none", private: true, body: 1000 }),
      ]),
      route("chapter/:id", "routes/chapter.tsx", page, { id: "chapter" }),
      served("healthz", { share: "none", private: false }),
    ]);
    expect(table.config).toEqual([
      { file: "routes/home.tsx", index: true },
      { file: "routes/admin/layout.tsx", children: [{ file: "routes/admin/index.tsx", path: "admin" }] },
      { file: "routes/chapter.tsx", path: "chapter/:id", id: "chapter" },
    ]);
    expect(table.bodyLimit("/admin.data")).toBe(1000);
    expect(table.bodyLimit("/healthz")).toBe(FORM_LIMIT);
    expect(table.match("/chapter/12")?.params).toEqual({ id: "12" });
    expect(table.match("/healthz")?.value.id).toBe("served:healthz");
    expect(table.match("/nowhere")).toBeUndefined();
    expect(table.disallowed).toEqual(["/admin"]);
  });

  it("says where a URL's secrets are", () => {
    const table = routeTable([
      route("feed/private/:token", "routes/feed.tsx", { share: "none", private: true, secrets: ["token"] }),
      route("callback", "routes/callback.tsx", { share: "none", private: true, secrets: ["code"] }),
    ]);
    expect(table.secrets("/feed/private/abc")).toEqual({ segments: [3], query: [] });
    expect(table.secrets("/callback")).toEqual({ segments: [], query: ["code"] });
    expect(table.secrets("/other")).toEqual({ segments: [], query: [] });
  });
});
