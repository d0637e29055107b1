import type { RequestHandler } from "express";
import { getEnv } from "~/lib/env.server";

export type HeaderOptions = { production: boolean; https: boolean };

/**
 * The Content-Security-Policy (docs/security-model.md S11) allowing our own scripts plus the inline ones named by
 * `inlineScripts`: a per-request `'nonce-…'` for pages rendered per request, or the `'sha256-…'` hashes of a
 * cached page's inline scripts (a nonce repeated to every reader of a cached page would be no nonce).
 */
export function contentSecurityPolicy(inlineScripts: string, formTargets = oauthFormTargets()): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    // The offline worker and the web manifest (ADR 96): our own files only.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action 'self'${formTargets}`,
  ].join("; ");
}

let formTargets: string | undefined;

/**
 * The OAuth providers' authorize pages, when configured: a form posted to our own /auth/:provider or
 * /settings/discord is answered with a redirect there, and a browser holds `form-action` to the redirect too.
 */
export function oauthFormTargets(): string {
  if (formTargets !== undefined) return formTargets;
  const env = getEnv();
  const urls = [
    env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET ? env.DISCORD_AUTHORIZE_URL : undefined,
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? env.GOOGLE_AUTHORIZE_URL : undefined,
  ];
  const origins = new Set(urls.flatMap((url) => (url ? [new URL(url).origin] : [])));
  formTargets = [...origins].map((origin) => ` ${origin}`).join("");
  return formTargets;
}

/** The headers every response carries, whatever made it. */
export function fixedSecurityHeaders({ production, https }: HeaderOptions): Record<string, string> {
  return {
    ...(production && https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}

/** Security headers for responses made per request. The CSP nonce is made per request. */
export function securityHeaders(options: HeaderOptions): RequestHandler {
  const fixed = Object.entries(fixedSecurityHeaders(options));
  return (_req, res, next) => {
    // Vite's dev server injects inline scripts of its own, so the strict policy applies to built code only.
    if (options.production)
      res.setHeader("Content-Security-Policy", contentSecurityPolicy(`'nonce-${res.locals.cspNonce}'`));
    for (const [name, value] of fixed) res.setHeader(name, value);
    next();
  };
}
