import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

/**
 * The methods this site answers: pages and files are read with GET and HEAD, every form posts. Anything else
 * (TRACE, OPTIONS, PUT, WebDAV's PROPFIND…) is refused at the edge with 405 and an Allow header, before a
 * route, a static file or the fetch API (which throws on TRACE and CONNECT) sees it. Methods Node's parser
 * does not know (made-up tokens, lowercase `get`) never reach here: it answers them 400 itself.
 */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
const ALLOW = ALLOWED_METHODS.join(", ");

export function isAllowedMethod(method: string | undefined): boolean {
  return (ALLOWED_METHODS as readonly (string | undefined)[]).includes(method);
}

export function sendMethodNotAllowed(req: IncomingMessage, res: ServerResponse): void {
  // A body sent with the method is not read; it is drained so the answer is not lost to a reset.
  req.resume();
  res.writeHead(405, {
    Allow: ALLOW,
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
  });
  res.end("Method Not Allowed");
}

/**
 * CONNECT (a proxy's tunnel) comes to the server as its own event, and Node drops the connection when
 * nothing listens: it gets the same 405, written on the socket, and the connection is closed.
 */
export function refuseConnect(socket: Duplex): void {
  socket.on("error", () => {});
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\nContent-Length: 18\r\nConnection: close\r\n\r\nMethod Not Allowed`,
  );
}
