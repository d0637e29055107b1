import { errorCode, errorStatus } from "./db-errors";

/**
 * An error the application means: a stable `code` for logs and clients, the HTTP `status` it is answered
 * with, and the catalogue key of the message a reader sees. Domain errors extend it (each naming itself:
 * a bundler may rename classes); the message (for developers, and never logged: it may hold the request's
 * values) is optional.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly messageKey: string,
    message: string = code,
  ) {
    super(message);
  }
}

export type ErrorAnswer = { code: string; status: number; messageKey?: string };

/**
 * How the server answers and logs any error, in one place: an application error by its own code and status;
 * anything else by its SQLSTATE, system code or class (db-errors.ts) and the status it asks for, else 500.
 */
export function describeError(error: unknown): ErrorAnswer {
  if (error instanceof AppError)
    return { code: error.code, status: error.status, messageKey: error.messageKey };
  return { code: errorCode(error), status: errorStatus(error) };
}

/** The response for an application error no route answered itself: its status, its code and message key. */
export function appErrorResponse(error: AppError): Response {
  return Response.json(
    { error: error.code, messageKey: error.messageKey },
    { status: error.status, headers: { "Cache-Control": "no-store" } },
  );
}
