import type { ServerBuild } from "react-router";
import { isDatabaseUnavailable, isTransactionConflict, RETRY_AFTER_SECONDS } from "#db/unavailable";
import { errorCode, isUnstorableTextError } from "~/lib/db-errors";
import { AppError, appErrorResponse, describeError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";

/** The answer while the database is unreachable: JSON for resource routes, an error page for the rest. */
export function databaseUnavailableResponse(): Response {
  return Response.json(
    { error: "database-unavailable" },
    {
      status: 503,
      statusText: "Service Unavailable",
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
    },
  );
}

/** The innermost cause's message: Drizzle's wrapper repeats the query and its parameters, kept out of logs. */
function reason(error: unknown): string {
  let current = error as { cause?: unknown; message?: unknown; code?: unknown } | undefined;
  while (current?.cause && typeof current.cause === "object") current = current.cause as typeof current;
  return [current?.code, current?.message].filter((part) => typeof part === "string").join(" ");
}

type Handler = (args: { context?: { requestId?: string } }) => unknown;

function answeringOutage(handler: Handler): Handler {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      // An application error no route answered itself is the client's to hear: its status, code and
      // message key, logged by its code. Anything else goes on to React Router (a 500, entry.server.tsx).
      if (error instanceof AppError) {
        const { code, status } = describeError(error);
        logger.info({ requestId: args.context?.requestId, code, status }, "request refused");
        throw appErrorResponse(error);
      }
      if (isTransactionConflict(error)) {
        // A deadlock or serialization failure rolled the request's transaction back: nothing was written,
        // and it succeeds when tried again in a moment.
        logger.warn({ requestId: args.context?.requestId, reason: reason(error) }, "database conflict");
        throw databaseUnavailableResponse();
      }
      // Text the database could not store (a NUL past the edge's check): the client's, never a 500.
      if (isUnstorableTextError(error)) {
        logger.info(
          { requestId: args.context?.requestId, code: errorCode(error), status: 400 },
          "request refused",
        );
        throw Response.json(
          { error: "unstorable-text", messageKey: "httpErrors.unstorableText.body" },
          { status: 400, headers: { "Cache-Control": "no-store" } },
        );
      }
      if (!isDatabaseUnavailable(error)) throw error;
      logger.warn({ requestId: args.context?.requestId, reason: reason(error) }, "database unavailable");
      // A thrown Response: a resource route sends it as it is (JSON); a page's loader or action becomes a
      // route error with its status, which the root error boundary shows as the translated "try again" page,
      // and which React Router sends as the status of the document or of the `.data` request.
      throw databaseUnavailableResponse();
    }
  };
}

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

/**
 * The build with every loader and action answering a lost database, a deadlock or a serialization
 * failure with 503 and Retry-After instead of a 500 (ADRs 14, 60), and an application error (app/lib/errors.ts) with its own status: one place for all
 * routes rather than a try/catch in each.
 */
export function answeringDatabaseOutages(build: ServerBuild): ServerBuild {
  let result = wrapped.get(build);
  if (result) return result;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module = { ...route.module } as Record<string, unknown>;
    for (const name of ["loader", "action"]) {
      if (typeof module[name] === "function") module[name] = answeringOutage(module[name] as Handler);
    }
    routes[id] = { ...route, module: module as unknown as typeof route.module };
  }
  const entry = build.entry.module;
  result = {
    ...build,
    routes,
    // A page or route data answered 503 by a route error above carries Retry-After too.
    entry: {
      ...build.entry,
      module: {
        ...entry,
        default: (request, status, headers, ...rest) => {
          if (status === 503) headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
          return entry.default(request, status, headers, ...rest);
        },
        handleDataRequest: async (response, args) => {
          const answer = entry.handleDataRequest ? await entry.handleDataRequest(response, args) : response;
          if (answer.status === 503) answer.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
          return answer;
        },
      },
    },
  };
  wrapped.set(build, result);
  return result;
}
