import "~/i18n/full-catalogue";
import { data, isRouteErrorResponse, redirect } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { answerCartForm } from "~/features/cart/commands.server";
import type { CartReply } from "~/features/cart/summary";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/cart";

/**
 * POST /cart: add, set, remove or clear (ADR 24), as a plain form. The signed-in reader's stored cart or the
 * visitor's cookie changes, then the browser goes back to the page the form names. A refused change is a
 * 4xx with a translated message, and changes nothing: thrown, so the page shows it (ErrorBoundary) without
 * running this route's loader, which would send the browser away. With JavaScript, the add-to-cart form
 * posts to /cart/reply instead (routes/cart-reply.ts) and stays on its page.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  const { reply, status, headers, back } = await answerCartForm(request, user?.id);
  if (!reply.ok) throw data<CartReply>(reply, { status });
  return redirect(back, { headers });
}

export function loader() {
  return redirect("/shop");
}

/** Nothing to show on its own: a GET goes to the shop, a form comes back to its page. */
export default function Cart() {
  return null;
}

/** Shown without JavaScript when a cart form is refused: the reason and the way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  if (!isRouteErrorResponse(error) || error.status >= 500) throw error;
  const reply = error.data as Partial<Extract<CartReply, { ok: false }>> | undefined;
  return (
    <Page title={t("cart.title")} width="max-w-xl">
      <FormAlert>{t(reply?.error ?? "cart.errors.invalid")}</FormAlert>
      <p className="mt-6 text-center">
        <Link to={reply?.back ?? "/shop"} className={buttonClass("primary")}>
          {t("cart.back")}
        </Link>
      </p>
    </Page>
  );
}
