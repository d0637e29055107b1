import "~/i18n/full-catalogue";
import { Outlet } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { CartBar } from "~/features/cart/cart-bar";
import { cartSummary, viewerCart } from "~/features/cart/commands.server";
import type { Route } from "./+types/layout";

/**
 * The shop's pages with the cart bar (ADR 24). A visitor with no cart cookie costs no query here, so their
 * shop pages stay one shared rendering (the page cache); a cart makes the page the viewer's own
 * (each of its routes' `cart` rule, app/routes.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  return { cart: await cartSummary(await viewerCart(user?.id, request)) };
}

export default function ShopLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Outlet />
      <CartBar cart={loaderData.cart} />
    </>
  );
}
