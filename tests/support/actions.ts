import type { TestReader } from "./factories";

/** A form post to a route's action, as the browser sends it (or a raw text body, for fuzzing). */
export const post = (url: string, reader: TestReader | undefined, fields: Record<string, string> | string) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    headers: {
      ...(reader && { cookie: reader.cookie }),
      "content-type": typeof fields === "string" ? "text/plain" : "application/x-www-form-urlencoded",
    },
    body: typeof fields === "string" ? fields : new URLSearchParams(fields),
  });

/** The status of an action's or loader's answer, thrown or returned, with its body or redirect. */
export async function statusOf(
  run: () => Promise<unknown>,
): Promise<{ status: number; body?: unknown; location?: string }> {
  try {
    const result = await run();
    if (result instanceof Response)
      return { status: result.status, location: result.headers.get("location") ?? "" };
    const init = (result as { init?: ResponseInit; data?: unknown }).init;
    return { status: init?.status ?? 200, body: init ? (result as { data?: unknown }).data : result };
  } catch (error) {
    if (error instanceof Response)
      return { status: error.status, location: error.headers.get("location") ?? "" };
    const init = (error as { init?: ResponseInit }).init;
    if (init?.status) return { status: init.status };
    throw error;
  }
}
