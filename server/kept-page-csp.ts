import crypto from "node:crypto";
import type { ServerResponse } from "node:http";
import { contentSecurityPolicy } from "./headers";

/*
 * The Content-Security-Policy of a kept page (server/page-cache.ts), made, replaced and removed here only.
 * A page made per request allows its inline scripts by the request's nonce (headers.ts). A kept page goes to
 * many readers, and a nonce repeated to all of them would be no nonce: it allows its scripts by their hashes.
 */

/** The hashes of a page's inline scripts (not files, not data blocks). */
function inlineScriptHashes(html: string): string {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\bsrc\s*=|\btype="application\/json"/.test(match[1] ?? "") || !match[2]) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(match[2]).digest("base64")}'`);
  }
  return [...hashes].join(" ");
}

/** Made: the kept page's own CSP header, when the strict policy applies (built code: headers.ts). */
export function keptPagePolicy(html: Buffer, production: boolean): Record<string, string> {
  return production
    ? { "Content-Security-Policy": contentSecurityPolicy(inlineScriptHashes(html.toString("utf8"))) }
    : {};
}

/** Replaced in the page: the nonce React wrote on its tags is one request's and only weight, so it goes. */
export function withoutRequestNonce(body: Buffer, nonce: unknown): Buffer {
  const attribute = ` nonce="${nonce}"`;
  return typeof nonce === "string" && body.includes(attribute)
    ? Buffer.from(body.toString("utf8").replaceAll(attribute, ""))
    : body;
}

/**
 * Removed from the response: the CSP set for this request's nonce would block the kept page's scripts, and
 * the kept page's headers carry its own. (A 304 carries no CSP, and the browser keeps its copy's.)
 */
export function dropRequestPolicy(res: ServerResponse): void {
  res.removeHeader("Content-Security-Policy");
}
