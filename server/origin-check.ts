import type { RequestHandler } from "express";
import { logger } from "~/lib/logger.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** An Origin header's origin as a URL serializes it (as React Router compares it), or undefined if none. */
function originOf(value: string): string | undefined {
  try {
    const { origin } = new URL(value);
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * State changes come only from our own pages (docs/security-model.md S12): a browser's cross-site POST is refused.
 * Browsers send Sec-Fetch-Site (modern ones) or Origin on every POST; a request with neither is not a
 * browser's and carries no ambient credentials worth forging.
 *
 * An Origin that is sent must also be this request's own (scheme and Host), whatever Sec-Fetch-Site says:
 * React Router refuses an action whose Origin is not its URL's by throwing, which would be answered 400 but
 * logged as a failure of ours (status 500). Refused here it is one warning at its real status.
 */
export function originCheck(): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const ownOrigin = originOf(`${req.protocol}://${req.get("host")}`);
    // Sec-Fetch-Site is set by the browser and cannot be forged by a page; older browsers send only Origin
    // (which is "null" under a no-referrer policy: refused, as React Router would refuse it).
    const siteAllowed = site === undefined || site === "same-origin" || site === "none";
    const originAllowed = origin === undefined || (ownOrigin !== undefined && originOf(origin) === ownOrigin);
    if (siteAllowed && originAllowed) return next();
    logger.warn(
      { requestId: res.locals.requestId, origin, site, url: req.originalUrl, ip: req.ip, status: 403 },
      "cross-origin write refused",
    );
    res.status(403).type("text/plain").send("Cross-origin request refused");
  };
}
