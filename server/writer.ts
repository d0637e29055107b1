import type { IncomingMessage, ServerResponse } from "node:http";
import {
  forgetWriterWhenAnswered,
  SESSION_UNCHANGED_HEADER,
  sessionCookieName,
} from "~/features/auth/session.server";
import { parseCookieHeader } from "~/lib/preferences.server";

const forgetSymbol = Symbol("forget the writer");
type WithForget = { [forgetSymbol]?: ReturnType<typeof forgetWriterWhenAnswered> };

/**
 * A signed-in reader's write (any request but GET and HEAD): their kept session and own pages are forgotten
 * on this instance once it is answered (ADR 53), so what they ask for next shows what it changed; other
 * instances learn it from the session events its rows raise. React Router's handler calls `writerAnswered`
 * as soon as its response is made (the writes are done then, and the answer may be large: a client slow to
 * read it must not delay this); a request answered elsewhere forgets when its response ends.
 */
export function forgetWriterOnAnswer(req: IncomingMessage, res: ServerResponse): void {
  const token = parseCookieHeader(req.headers.cookie).get(sessionCookieName());
  if (!token) return;
  const forget = forgetWriterWhenAnswered(token);
  (res as WithForget)[forgetSymbol] = forget;
  res.once("finish", () => void forget());
  res.once("close", () => void forget());
}

/**
 * The response to a request is made: a write's writer is forgotten before it leaves. So is the reader of a
 * GET answered with a redirect, the one kind of GET that writes (a sign-in provider's callback linking an
 * account, a confirmation link, a payment's return), before the browser follows it to a page of theirs. A
 * response marked `SESSION_UNCHANGED_HEADER` (the mark removed here) forgets the writer's own pages alone.
 */
export async function writerAnswered(
  req: IncomingMessage,
  res: ServerResponse,
  response: { status: number; headers: Headers },
): Promise<void> {
  const { status, headers } = response;
  const ownRecordsOnly = headers.get(SESSION_UNCHANGED_HEADER) === "1";
  headers.delete(SESSION_UNCHANGED_HEADER);
  const forget = (res as WithForget)[forgetSymbol];
  if (forget) return forget(ownRecordsOnly ? "own records" : "session");
  if (req.method !== "GET" || status < 300 || status >= 400) return;
  const token = parseCookieHeader(req.headers.cookie).get(sessionCookieName());
  if (token) await forgetWriterWhenAnswered(token)();
}
