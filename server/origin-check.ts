import type { RequestHandler } from "express";
import { logger } from "~/lib/logger.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * State changes come only from our own pages (docs/security-model.md S12): a browser's cross-site POST is refused.
 * Browsers send Sec-Fetch-Site (modern ones) or Origin on every POST; a request with neither is not a
 * browser's and carries no ambient credentials worth forging.
 */
export function originCheck(configuredOrigin: string): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    // Sec-Fetch-Site is set by the browser and cannot be forged by a page; older browsers send only Origin
    // (which may be "null" under a no-referrer policy, so it decides only when Sec-Fetch-Site is absent).
    const allowed =
      site !== undefined
        ? site === "same-origin" || site === "none"
        : origin === undefined || origin === configuredOrigin || origin === ownOrigin;
    if (allowed) return next();
    logger.warn(
      { requestId: res.locals.requestId, origin, site, url: req.originalUrl, ip: req.ip },
      "cross-origin write refused",
    );
    res.status(403).type("text/plain").send("Cross-origin request refused");
  };
}
