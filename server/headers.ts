import type { RequestHandler } from "express";

/** Security headers for every response (SECURITY.md item 11). The CSP nonce is made per request. */
export function securityHeaders({
  production,
  https,
}: {
  production: boolean;
  https: boolean;
}): RequestHandler {
  return (_req, res, next) => {
    const nonce = res.locals.cspNonce as string;
    // Vite's dev server injects inline scripts of its own, so the strict policy applies to built code only.
    if (production) {
      res.setHeader(
        "Content-Security-Policy",
        [
          "default-src 'self'",
          `script-src 'self' 'nonce-${nonce}'`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: https:",
          "font-src 'self'",
          "connect-src 'self'",
          "object-src 'none'",
          "base-uri 'none'",
          "frame-ancestors 'none'",
          "form-action 'self'",
        ].join("; "),
      );
    }
    if (production && https)
      res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    next();
  };
}
