import type { IncomingMessage, ServerResponse } from "node:http";
import { parseCookieHeader } from "~/lib/preferences.server";
import { isUnstorableText } from "~/lib/unstorable-text";
import { sendRefusal } from "./body-limit";

/** The URL's path (`%00` or a raw NUL) or any query parameter's name or value holds unstorable text. */
export function unstorableInUrl(url: string): boolean {
  const queryAt = url.indexOf("?");
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  if (/%00/i.test(pathname) || pathname.includes("\u0000")) return true;
  if (queryAt === -1) return false;
  for (const [name, value] of new URLSearchParams(url.slice(queryAt + 1))) {
    if (isUnstorableText(name) || isUnstorableText(value)) return true;
  }
  return false;
}

/** A cookie's name or (percent-decoded) value holds unstorable text. */
export function unstorableInCookies(header: string | undefined): boolean {
  for (const [name, value] of parseCookieHeader(header)) {
    if (isUnstorableText(name) || isUnstorableText(value)) return true;
  }
  return false;
}

/** Any string in a parsed JSON value (object keys included). */
function unstorableInJson(value: unknown): boolean {
  if (typeof value === "string") return isUnstorableText(value);
  if (Array.isArray(value)) return value.some(unstorableInJson);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, item]) => isUnstorableText(key) || unstorableInJson(item));
  }
  return false;
}

/**
 * A request body's text as its routes will read it: every field of a form (URL-encoded or multipart, where a
 * file's name counts and its bytes do not), every string of a JSON document. A body that does not parse as
 * its type is left to its route, which answers it (forms.ts `readForm`, a webhook's signature check).
 */
export async function unstorableInBody(
  contentType: string | undefined,
  body: Buffer<ArrayBuffer>,
): Promise<boolean> {
  const type = (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
  if (type === "application/x-www-form-urlencoded") {
    for (const [name, value] of new URLSearchParams(body.toString("utf8"))) {
      if (isUnstorableText(name) || isUnstorableText(value)) return true;
    }
    return false;
  }
  if (type === "multipart/form-data") {
    const form = await new Response(body, { headers: { "Content-Type": contentType ?? "" } })
      .formData()
      .catch(() => undefined);
    for (const [name, value] of form ?? []) {
      const text = typeof value === "string" ? value : value.name;
      if (isUnstorableText(name) || isUnstorableText(text)) return true;
    }
    return false;
  }
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return unstorableInJson(JSON.parse(body.toString("utf8")));
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * The one answer to unstorable text anywhere in a request (ADR 64): 400, nothing read further or saved; a
 * short page in the reader's language for a browser, JSON for scripts.
 */
export function sendUnstorableText(req: IncomingMessage, res: ServerResponse): void {
  sendRefusal(req, res, 400, { error: "unstorable-text" }, (t) => ({
    title: t("httpErrors.unstorableText.title"),
    body: t("httpErrors.unstorableText.body"),
  }));
}
