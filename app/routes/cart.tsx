import "~/i18n/full-catalogue";
import { data, isRouteErrorResponse, redirect } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { applyCartIntent, CartRefused } from "~/features/cart/commands.server";
import { itemCount } from "~/features/cart/lines";
import type { CartReply } from "~/features/cart/summary";
import { useTranslation } from "~/i18n/react";
import { refererPath, safeRedirectPath } from "~/lib/redirect";
import { buttonClass } from "~/ui/button";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import type { Route } from "./+types/cart";

/**
 * POST /cart: add, set, remove or clear (ADR 24). The signed-in reader's stored cart or the visitor's cookie
 * changes, then the browser goes back to `redirectTo`, else the page that sent the form, else the shop; a
 * fetcher (`reply=data`) gets data instead and the page's loaders refresh the cart bar. A refused change is
 * a 4xx with a translated message, and changes nothing: data for a fetcher; thrown for a plain form, so the
 * page shows it (ErrorBoundary) without running this route's loader, which would send the browser away.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(form.get("redirectTo") || refererPath(request), "/shop");
  const user = await getSessionUser(request);
  try {
    const { lines, setCookie } = await applyCartIntent(
      user ? { userId: user.id } : { userId: undefined, request },
      form,
    );
    const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
    if (form.get("reply") === "data")
      return data<CartReply>({ ok: true, count: itemCount(lines) }, { headers });
    return redirect(back, { headers });
  } catch (error) {
    if (!(error instanceof CartRefused)) throw error;
    const refusal = data<CartReply>({ ok: false, error: error.messageKey, back }, { status: error.status });
    if (form.get("reply") === "data") return refusal;
    throw refusal;
  }
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
