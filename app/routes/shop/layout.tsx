import "~/i18n/full-catalogue";
import { Outlet } from "react-router";
import { getKeptSessionUser } from "~/features/auth/session.server";
import { CartBar } from "~/features/cart/cart-bar";
import { cartSummary, viewerCart } from "~/features/cart/commands.server";
import type { Route } from "./+types/layout";

/**
 * The shop's pages with the cart bar (ADR 24). A visitor with no cart cookie costs no query here, so their
 * shop pages stay one shared rendering (the page cache); a cart cookie makes the page the visitor's own (each
 * of its routes' `cart` rule, app/routes.ts). Signed-in readers with the same cart share one (ADR 102).
 */
export async function loader({ request }: Route.LoaderArgs) {
  // A signed-in reader's cart as the kept session holds it: the page cache names the group of readers who
  // share this page by those lines (ADR 102), so the group's render shows the same.
  const user = await getKeptSessionUser(request);
  return { cart: await cartSummary(user ? [...user.cart] : await viewerCart(undefined, request)) };
}

export default function ShopLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Outlet />
      <CartBar cart={loaderData.cart} />
    </>
  );
}
