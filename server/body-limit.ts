import type { IncomingMessage, ServerResponse } from "node:http";
import { Transform } from "node:stream";
import type { RequestHandler } from "express";
import { UPLOAD_MAX_BYTES } from "~/features/uploads/limits";
import { serverTranslator } from "~/i18n/server";
import { parseCookieHeader, preferencesFromCookies } from "~/lib/preferences.server";
import { FORM_LIMIT, KB } from "~/lib/route-rules";
import { siteRoutes } from "~/routes";

/** How long an oversized body is drained after its 413 before the connection is cut. */
const LINGER_MS = 2000;

export { FORM_LIMIT };

/**
 * The most a request body may hold: its route's `body` rule (app/routes.ts, ADR 73; the limits of ADR 15),
 * a form's when it says none.
 */
export function bodyLimitFor(pathname: string): number {
  return siteRoutes.bodyLimit(pathname);
}

/** JSON for what scripts and providers send, a short page in the reader's language for a browser's form. */
function sendTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  const kilobytes = Math.round(limit / KB);
  sendRefusal(req, res, 413, { error: "payload-too-large", limit }, (t) => ({
    title: t("httpErrors.tooLarge.title"),
    // An upload's limit is said in MB, with what happened to the file.
    body:
      limit >= UPLOAD_MAX_BYTES
        ? t("httpErrors.tooLarge.file", { megabytes: Math.floor(limit / (1024 * KB)) })
        : t("httpErrors.tooLarge.body", { kilobytes }),
  }));
}

/**
 * A request refused at the edge with `status`: `json` for scripts and providers, a short page in the reader's
 * language (a title and a sentence) for a browser. Any body not yet read is drained, then cut.
 */
export function sendRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  json: Record<string, unknown>,
  page: (t: ReturnType<typeof serverTranslator>) => { title: string; body: string },
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // The rest of the body is read and dropped for a moment before the connection is cut: closing a socket with
  // unread input sends a reset, which can destroy the answer before the client reads it (a lingering close).
  if (!req.complete) {
    req.resume();
    setTimeout(() => {
      if (!req.complete) req.socket.destroy();
    }, LINGER_MS).unref();
  }
  res.setHeader("Cache-Control", "no-store");
  res.statusCode = status;
  const accept = req.headers.accept ?? "";
  if (!/text\/html/.test(accept)) {
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify(json));
    return;
  }
  const { language } = preferencesFromCookies(
    parseCookieHeader(req.headers.cookie),
    req.headers["accept-language"],
    req.url,
  );
  const t = serverTranslator(language);
  const { title, body } = page(t);
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end(
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p><p><a href="/">${t("httpErrors.goHome")}</a></p></main></body></html>`,
  );
}

/** Refuses a body whose declared length is over its route's limit before a byte of it is read. */
export function bodyLimit(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const limit = bodyLimitFor(req.path);
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) return sendTooLarge(req, res, limit);
    next();
  };
}

/**
 * The request body as it is read, cut at its route's limit: a chunked body declares no length, so it is
 * counted. Past the limit the client gets its 413 and the reader of the body an error (`onOverflow` first).
 */
export function limitedBody(
  req: IncomingMessage & { path: string },
  res: ServerResponse,
  onOverflow: () => void,
) {
  const limit = bodyLimitFor(req.path);
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen <= limit) return callback(null, chunk);
      onOverflow();
      req.unpipe(counter);
      sendTooLarge(req, res, limit);
      callback(Object.assign(new Error("request body over its limit"), { name: "PayloadTooLarge" }));
    },
  });
  req.once("error", (error) => counter.destroy(error));
  return req.pipe(counter);
}
