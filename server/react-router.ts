import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import { type AppLoadContext, createRequestHandler, type ServerBuild } from "react-router";
import { SHAREABLE_HEADER, TIMELESS_HEADER } from "~/lib/shareable";
import { limitedBody } from "./body-limit";
import { dropRequestPolicy, withoutRequestNonce } from "./kept-page-csp";
import { type PageCache, pendingPage } from "./page-cache";
import { writerAnswered } from "./writer";

function toFetchRequest(origin: string, req: ExpressRequest, res: ExpressResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(limitedBody(req, res, () => controller.abort()));
    init.duplex = "half";
  }
  // React Router checks an action's Origin against this URL's, so it is the one the browser used. Pages do
  // not depend on it (links are relative; e-mails and OAuth use APP_ORIGIN), so no Host header can change
  // a cached page: tests/server/page-cache.test.ts.
  const host = req.get("host");
  return new Request(`${host ? `${req.protocol}://${host}` : origin}${req.originalUrl}`, init);
}

/**
 * React Router behind Express. A page the page cache asked for (a miss) and the route marked shareable is
 * read whole, kept and sent from the cache's copy; everything else streams as React Router makes it.
 */
const ADMIN_PATH = /^\/admin(\/|\.data$|$)/;

export function reactRouterHandler({
  build,
  origin,
  pages,
  getLoadContext,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  origin: string;
  pages: PageCache | undefined;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}): RequestHandler {
  // Given a function, React Router asks for the build and derives its route tables on each request (0.7 ms
  // and their garbage): only under Vite, where the build changes on edits.
  const handle = createRequestHandler(build);
  const handler: RequestHandler = async (req, res, next) => {
    const page = pendingPage(req);
    // A render that fails (the database gone: 503) is answered with the page kept under the same key, if
    // any (stale-if-error, server/page-cache.ts).
    const serveStale = () =>
      Boolean(page && pages?.serveStale(req, res, res.locals.requestId as string, page));
    try {
      const response = await handle(toFetchRequest(origin, req, res), getLoadContext(req, res));
      await writerAnswered(req, res, response.status);
      if (response.status >= 500 && serveStale()) {
        await response.body?.cancel();
        return;
      }
      const shareable = response.headers.get(SHAREABLE_HEADER) === "1";
      const timeless = response.headers.get(TIMELESS_HEADER) === "1";
      response.headers.delete(SHAREABLE_HEADER);
      response.headers.delete(TIMELESS_HEADER);
      if (page?.timeless && pages && shareable && response.status === 200 && !timeless) {
        // Rendered without the reader's time zone, but the page shows a date now: again, in their zone.
        await response.body?.cancel();
        pages.showsTime(req, page);
        return handler(req, res, next);
      }
      // The author's admin (and its 404 for anyone else): never kept by any cache, the browser's included.
      if (ADMIN_PATH.test(req.path)) response.headers.set("Cache-Control", "no-store");
      if (
        page &&
        pages &&
        req.method === "GET" &&
        shareable &&
        response.status === 200 &&
        !response.headers.has("Set-Cookie") &&
        /^text\/(html|x-script)\b/.test(response.headers.get("Content-Type") ?? "")
      ) {
        const body = withoutRequestNonce(Buffer.from(await response.arrayBuffer()), res.locals.cspNonce);
        if (body.length > 0) {
          const remix = response.headers.get("X-Remix-Response");
          const type = response.headers.get("Content-Type") as string;
          const passOn: Record<string, string> = remix ? { "X-Remix-Response": remix } : {};
          const entry = await pages.store(page, body, type, passOn, timeless);
          dropRequestPolicy(res);
          pages.send(req, res, res.locals.requestId as string, entry, "miss");
          return;
        }
        page.settle(undefined);
        await sendResponse(res, new Response(null, { status: response.status, headers: response.headers }));
        return;
      }
      page?.settle(undefined);
      await sendResponse(res, response);
    } catch (error) {
      if (serveStale()) return;
      page?.settle(undefined);
      next(error);
    }
  };
  return handler;
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  // What is made per request is nobody else's: no shared cache keeps it.
  if (!response.headers.has("Cache-Control")) res.setHeader("Cache-Control", "private, no-cache");
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!res.destroyed && !res.writableEnded) throw error;
  }
}
