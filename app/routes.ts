import { index, type RouteConfig, route } from "@react-router/dev/routes";

/** The whole URL map. */
export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("chapters", "routes/toc.tsx", { id: "chapters" }),
  route("toc", "routes/toc.tsx", { id: "toc" }),
  route("wiki", "routes/wiki/index.tsx"),
  route("wiki/:section", "routes/wiki/section.tsx"),
  route("wiki/:section/:slug", "routes/wiki/page.tsx"),
  route("gallery", "routes/gallery.tsx"),
  route("shop", "routes/shop/index.tsx"),
  route("shop/product/:id", "routes/shop/product.tsx"),
  route("fundraiser", "routes/fundraiser.tsx"),
  route("terms", "routes/legal.tsx", { id: "terms" }),
  route("privacy", "routes/legal.tsx", { id: "privacy" }),
  route("preferences", "routes/preferences.ts"),
  route("login", "routes/auth/login.tsx"),
  route("register", "routes/auth/register.tsx"),
  route("welcome", "routes/auth/welcome.tsx"),
  route("logout", "routes/auth/logout.ts"),
  route("forgot-password", "routes/auth/forgot-password.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("account", "routes/account/index.tsx"),
  route("account/data", "routes/account/data.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
