import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import {
  type ActionFunctionArgs,
  type AppLoadContext,
  type EntryContext,
  isRouteErrorResponse,
  type LoaderFunctionArgs,
  ServerRouter,
} from "react-router";
import { I18nProvider } from "~/i18n/react";
import { catalogues } from "~/i18n/server";
import { DocumentOnlyProvider } from "~/lib/document-only";
import { describeError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { NonceProvider } from "~/lib/nonce";
import { getPreferences } from "~/lib/preferences.server";
import { takeRouteData } from "~/lib/router-internals";
import { siteRoutes } from "~/routes";

export const streamTimeout = 5_000;

/**
 * A loader's, an action's or the render's failure: one JSON line with the request id and a code, never the
 * error's message or stack (a database error's carry the query's parameters). A request the client gave up
 * on (or a body cut at its limit) is not a failure of ours, nor is a 4xx a resource route throws (React Router
 * reports those here too: `requireAuthor`'s 404 from /admin/preview, a refused preference).
 */
export function handleError(
  error: unknown,
  { request, context }: LoaderFunctionArgs | ActionFunctionArgs,
): void {
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  // React Router's own refusal of an action whose Origin is not its URL's, answered 400 (the edge refuses
  // these first: server/origin-check.ts): the client's, logged at its real status.
  if (error instanceof Error && /`origin` header|does not match `origin`/.test(error.message)) {
    logger.warn(
      { requestId: context.requestId, code: "cross-origin", status: 400, method: request.method },
      "cross-origin write refused",
    );
    return;
  }
  logger.error(
    { requestId: context.requestId, code: describeError(error).code, status: 500, method: request.method },
    "request failed",
  );
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { language } = getPreferences(request);
  const nonce = loadContext.cspNonce;
  // The route data goes into the hand-off data block (AppScripts), not into scripts of React Router's own.
  const routeData = await takeRouteData(routerContext);
  const documentOnly: Record<string, string> = {
    ...loadContext.documentOnly,
    ...(routeData === undefined ? {} : { routeData }),
  };
  // A private page (its route's rules, app/routes.ts) says noindex, the 404 and error screens on it too.
  if (siteRoutes.isPrivate(new URL(request.url).pathname)) documentOnly.noindex = "1";
  return new Promise((resolve, reject) => {
    // Every document is rendered whole and answered as one buffer (ADR 99): nothing is sent after the shell
    // with React's script to move it in place (which a browser without JavaScript would never show, and a
    // crawler or the page cache must not get), and one write reaches the compression instead of one for each
    // 2 KB of React's output, each through a PassThrough, a web stream and a brotli flush (more CPU than the
    // render itself: measured in the ADR).
    let rendered = false;
    const chunks: Buffer[] = [];
    const document = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        const body = Buffer.concat(chunks);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        // Its length known (the compression replaces it with the compressed body's framing).
        responseHeaders.set("Content-Length", String(body.length));
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DocumentOnlyProvider value={documentOnly}>
          <I18nProvider language={language} catalogue={catalogues[language]}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nProvider>
        </DocumentOnlyProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          rendered = true;
          pipe(document);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (rendered && !request.signal.aborted) {
            logger.error(
              {
                requestId: loadContext.requestId,
                code: describeError(error).code,
                status: 500,
                method: request.method,
              },
              "render failed",
            );
          }
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
