import { exportAccountData } from "~/features/account/export.server";
import { requireUser } from "~/features/auth/guards.server";
import type { Route } from "./+types/data";

/** "Download my data": the reader's own data as a JSON file. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const body = JSON.stringify(await exportAccountData(user.id), null, 2);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-data-${user.username.replace(/[^\w.-]/g, "_")}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
