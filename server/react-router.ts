import { writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from "express";
import { type AppLoadContext, createRequestHandler, type ServerBuild } from "react-router";
import { type Language, languages } from "~/i18n/config";
import { pathLanguage, unprefixedPath } from "~/i18n/urls";
import { OFFLINE_HEADER } from "~/lib/offline";
import { newRequestScope, REQUEST_SCOPE_HEADER } from "~/lib/request-scope";
import { SHAREABLE_HEADER, TIMELESS_HEADER } from "~/lib/shareable";
import { type Outcome, sendBusy } from "./admission";
import { limitedBody } from "./body-limit";
import { dropRequestPolicy, withoutRequestNonce } from "./kept-page-csp";
import { type PageCache, pendingPage } from "./page-cache";
import { sendUnstorableText, unstorableInBody } from "./text-input";
import { writerAnswered } from "./writer";

/**
 * The request body, read whole within its route's limit (at most a few MB: server/body-limit.ts), so its
 * text can be checked before any route reads it; undefined when it was cut at its limit (the 413 is
 * answered) or the client went away.
 */
function readBody(
  req: ExpressRequest,
  res: ExpressResponse,
  signal: AbortSignal,
): Promise<Buffer<ArrayBuffer> | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const body = limitedBody(req, res, () => {});
    body.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A new buffer, never a shared one: typed as the fetch API takes it.
    body.once("end", () => resolve(Buffer.concat(chunks) as Buffer<ArrayBuffer>));
    body.once("error", () => resolve(undefined));
    signal.addEventListener(
      "abort",
      () => {
        body.destroy();
        resolve(undefined);
      },
      { once: true },
    );
  });
}

/**
 * The fetch Request React Router answers, or undefined when the request was answered here: a body over its
 * limit (413), or text in it the database cannot store (400, server/text-input.ts), so no route sees either.
 */
async function toFetchRequest(
  origin: string,
  req: ExpressRequest,
  res: ExpressResponse,
): Promise<Request | undefined> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  // The loaders of this request share work by it (app/lib/request-scope.ts); whatever the client sent is replaced.
  headers.set(REQUEST_SCOPE_HEADER, newRequestScope());
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = await readBody(req, res, controller.signal);
    if (!body) return undefined;
    if (await unstorableInBody(req.headers["content-type"], body)) {
      sendUnstorableText(req, res);
      return undefined;
    }
    init.body = body;
  }
  // React Router checks an action's Origin against this URL's, so it is the one the browser used. Pages do
  // not depend on it (links are relative; e-mails and OAuth use APP_ORIGIN), so no Host header can change
  // a cached page: tests/server/page-cache.test.ts.
  const host = req.get("host");
  return new Request(`${host ? `${req.protocol}://${host}` : origin}${req.originalUrl}`, init);
}

/**
 * React Router behind Express. A page the page cache asked for (a miss) and the route marked shareable is
 * read whole, kept and sent from the cache's copy; everything else is sent as React Router made it.
 */
const ADMIN_PATH = /^\/admin(\/|\.data$|$)/;

/** A language's URL of the admin (`/es/admin/chapters`): the admin's own path, else undefined. */
function languageAdmin(pathname: string): string | undefined {
  if (!pathLanguage(pathname)) return undefined;
  const path = unprefixedPath(pathname);
  return ADMIN_PATH.test(path) ? path : undefined;
}

/** The build as served under a basename (a language's URLs); under Vite, each request's build so. */
function withBasename(
  build: ServerBuild | (() => Promise<ServerBuild>),
  basename: string,
): ServerBuild | (() => Promise<ServerBuild>) {
  if (typeof build === "function") return async () => ({ ...(await build()), basename });
  return { ...build, basename };
}

export function reactRouterHandler({
  build,
  origin,
  pages,
  getLoadContext,
  admit,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  origin: string;
  pages: PageCache | undefined;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  /** A slot for the request's work (server/admission.ts), held until React Router has made the answer. */
  admit: (req: ExpressRequest, res: ExpressResponse) => Promise<Outcome>;
}): RequestHandler {
  // Given a function, React Router asks for the build and derives its route tables on each request (0.7 ms
  // and their garbage): only under Vite, where the build changes on edits.
  const handle = createRequestHandler(build);
  // Each language's URLs (`/es/…`, ADR 87) are the same app under the basename `/es`: React Router strips it
  // to match, prefixes every link, form, redirect, route data and manifest request with it, and hands it to
  // the browser's router, so a reader on a Spanish page stays on Spanish pages.
  const handles = Object.fromEntries(
    languages.map((language) => [language, createRequestHandler(withBasename(build, `/${language}`))]),
  ) as Record<Language, ReturnType<typeof createRequestHandler>>;
  const handler: RequestHandler = async (req, res, next) => {
    const page = pendingPage(req);
    // A render that fails (the database gone: 503) is answered with the page kept under the same key, if
    // any (stale-if-error, server/page-cache.ts).
    const serveStale = () =>
      Boolean(page && pages?.serveStale(req, res, res.locals.requestId as string, page));
    try {
      const request = await toFetchRequest(origin, req, res);
      if (!request) {
        page?.settle(undefined);
        return;
      }
      // The admin speaks its author's language, at its one address: a language's URL of it leads there.
      const prefixedAdmin = languageAdmin(new URL(request.url).pathname);
      if (prefixedAdmin) {
        page?.settle(undefined);
        if (prefixedAdmin.endsWith(".data") || req.method !== "GET") res.status(404).end();
        else res.redirect(308, `${prefixedAdmin}${new URL(request.url).search}`);
        return;
      }
      // After the body is read (its bytes are no work), before the loaders, actions and render: the work.
      const admitted = await admit(req, res);
      if (typeof admitted !== "function") {
        if (admitted === "refused") sendBusy(req, res);
        page?.settle(undefined);
        return;
      }
      let response: Response;
      try {
        const language = pathLanguage(new URL(request.url).pathname);
        response = await (language ? handles[language] : handle)(request, getLoadContext(req, res));
      } finally {
        // Made: the rest is sending bytes, which a slow client must not hold a slot for.
        admitted();
      }
      await writerAnswered(req, res, response);
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
      if (ADMIN_PATH.test(unprefixedPath(req.path))) response.headers.set("Cache-Control", "no-store");
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
          // A chapter page's offline mark is the same for every reader the kept page is shared by (ADR 96).
          const offline = response.headers.get(OFFLINE_HEADER);
          if (offline) passOn[OFFLINE_HEADER] = offline;
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
