import { receiveWebhook } from "~/features/payments/webhook.server";
import type { Route } from "./+types/webhook";

/** Provider webhooks (POST /webhooks/stripe, /webhooks/test): the signature is checked over the raw body. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  const raw = await request.text();
  const answer = await receiveWebhook(params.provider, raw, request.headers, context);
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
