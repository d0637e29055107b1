import fs from "node:fs";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { sharedViewerOf } from "~/features/page-cache/viewer.server";
import { siteRoutes } from "./routes";

const sharedViewer = sharedViewerOf(siteRoutes.match);
const withCart = new Map([["cart", "3.5x2-1x1"]]);

describe("the page cache's viewer groups for visitors", () => {
  it.each([
    "/shop",
    "/shop/product/1",
    "/shop/product/1.data",
    "/shop.data",
    "/checkout",
    "/shop/product/6/inquire",
    // As React Router reads them: any case, percent-escapes decoded.
    "/SHOP",
    "/sh%6Fp/product/1",
  ])("gives a visitor with a cart their own %s (the cart bar shows their cart)", async (pathname) => {
    expect(await sharedViewer(pathname, withCart)).toBeUndefined();
    expect(await sharedViewer(pathname, new Map())).toBe("visitor");
  });

  it.each(["/", "/toc", "/chapter/1", "/wiki", "/gallery", "/_root.data"])(
    "shares %s with every visitor, cart or not",
    async (pathname) => {
      expect(await sharedViewer(pathname, withCart)).toBe("visitor");
    },
  );

  it("keeps chapter pages apart for visitors reading side by side with the original (ADR 97), and no other page", async () => {
    const sideBySide = new Map([["sbs", "on"]]);
    for (const pathname of ["/chapter/1", "/chapter/1.data"])
      expect(await sharedViewer(pathname, sideBySide)).toBe("visitor side-by-side");
    for (const pathname of ["/", "/toc", "/wiki", "/_root.data"])
      expect(await sharedViewer(pathname, sideBySide)).toBe("visitor");
    expect(await sharedViewer("/chapter/1", new Map([["sbs", "x"]]))).toBe("visitor");
  });

  it("shares the shop again once the cart cookie is gone or empty", async () => {
    expect(await sharedViewer("/shop", new Map([["cart", ""]]))).toBe("visitor");
  });

  it.each([
    "/admin",
    "/admin.data",
    "/admin/chapters/1",
    "/login",
    "/shopping",
    "/feed/private/x",
    "/healthz",
  ])("keeps %s for no one", async (pathname) => {
    expect(await sharedViewer(pathname, new Map())).toBeUndefined();
  });
});

/** React Router's own routes from the table's config, ids as its build names them. */
function routerRoutes(entries: RouteConfigEntry[]): RouteObject[] {
  return entries.map((entry) => ({
    id: entry.id ?? entry.file.replace(/\.[^/.]+$/, ""),
    path: entry.path,
    index: entry.index,
    children: entry.children ? routerRoutes(entry.children) : undefined,
  })) as RouteObject[];
}

describe("the route table", () => {
  const router = [{ id: "root", path: "", children: routerRoutes(siteRoutes.config) }] as RouteObject[];
  const samples = siteRoutes.routes
    .filter((route) => !route.id.startsWith("served:"))
    .map((route) => `/${route.path.replace(/:[^/]+/g, "7").replace("*", "a/b")}`);
  const tricky = [
    "/",
    "/admin/chapters/new",
    "/admin/chapters/12",
    "/Admin/Chapters/NEW",
    "/pay/test/subscription",
    "/pay/test/subscription/sub_1",
    "/login/verify/passkey/",
    "/shop/product/%31/inquire",
    "/wiki/a/b/c",
    "/feed.atom",
    "/feed/private",
    "/card/chapter/4.png",
    "/x%ZZ",
  ];

  it.each([...samples, ...tricky])("answers %s with the route React Router chooses", (pathname) => {
    const theirs = matchRoutes(router, pathname)?.at(-1)?.route.id;
    expect(siteRoutes.match(pathname)?.value.id).toBe(theirs);
  });

  it("gives route data the page's route", () => {
    expect(siteRoutes.match("/chapter/3/comments.data")?.value.id).toBe("routes/chapter-comments");
    expect(siteRoutes.match("/_root.data")?.value.id).toBe("routes/home");
  });

  it("disallows every private route in robots.txt and no public one", () => {
    for (const route of siteRoutes.routes) {
      const sample = `/${route.path.replace(/:[^/]+|\*/g, "x")}`;
      const disallowed = siteRoutes.disallowed.some((prefix) => sample.startsWith(prefix));
      expect(disallowed, route.path).toBe(route.rules.private);
    }
    expect(siteRoutes.disallowed).toContain("/admin");
    expect(siteRoutes.disallowed).not.toContain("/admin/uploads");
  });

  it("says the cart bar shows on every page under the shop's layout", () => {
    const shop = siteRoutes.config.find((entry) => entry.file === "routes/shop/layout.tsx");
    const paths = shop?.children?.map((entry) => entry.path) ?? [];
    expect(paths.length).toBeGreaterThan(3);
    for (const route of siteRoutes.routes.filter((route) => paths.includes(route.path)))
      expect(route.rules.share !== "none" && route.rules.cart, route.path).toBe(true);
  });

  it("has the rules of every path Express answers before React Router", () => {
    const code = fs.readFileSync("server/app.ts", "utf8");
    const paths = [...code.matchAll(/app\.(?:get|use|all)\(\s*"(\/[\w-]+)"/g)].map((found) => found[1] ?? "");
    expect(paths).toEqual(expect.arrayContaining(["/healthz", "/media", "/assets"]));
    // A path itself (`/healthz`) or what lies under it (`/media/…`).
    const served = (path: string) => siteRoutes.match(path)?.value.id.startsWith("served:") === true;
    for (const path of paths) expect(served(path) || served(`${path}/x`), path).toBe(true);
  });

  it("lets a page be kept only when its route module marks it shareable, and the other way round", () => {
    const marks = /from "~\/lib\/shareable"/;
    for (const route of siteRoutes.routes) {
      const entry = findEntry(siteRoutes.config, route.id);
      if (!entry) continue;
      const code = fs.readFileSync(`app/${entry.file}`, "utf8");
      // Its module marks it kept for its reader; it is rendered for them until ADR 53 takes it in.
      if (route.path === "settings/security") continue;
      expect(route.rules.share !== "none", route.path).toBe(marks.test(code));
    }
  });
});

function findEntry(entries: RouteConfigEntry[], id: string): RouteConfigEntry | undefined {
  for (const entry of entries) {
    if ((entry.id ?? entry.file.replace(/\.[^/.]+$/, "")) === id) return entry;
    const below = entry.children && findEntry(entry.children, id);
    if (below) return below;
  }
  return undefined;
}
