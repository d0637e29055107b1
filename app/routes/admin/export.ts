import { data } from "react-router";
import { readOnlyPage } from "~/features/admin/read-only.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { type ExportName, exportCsv } from "~/features/orders/exports.server";
import type { Route } from "./+types/export";

const names: Record<string, ExportName> = {
  "/admin/export/orders.csv": "orders",
  "/admin/export/payments.csv": "payments",
};

/** Orders or payments as CSV for the author's accounting (ADR 43); anyone else gets the 404. */
export async function loader({ request }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  const name = names[new URL(request.url).pathname];
  if (!name) throw data(null, { status: 404 });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(await exportCsv(name, { via: "admin", userId: author.id }), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
}

export function action({ request }: Route.ActionArgs) {
  return readOnlyPage(request);
}
