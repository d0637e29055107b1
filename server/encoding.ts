import Negotiator from "negotiator";

export type Encoding = "br" | "gzip" | "identity";

/** Ours, best first: on a tie of the client's q-values, the smaller body wins. */
const ours: Encoding[] = ["br", "gzip", "identity"];

/** Accept-Encoding values seen: browsers send a handful, so the hot path is one lookup, not a parse. */
const chosen = new Map<string, Encoding>();
const MAX_REMEMBERED = 256;

/**
 * The encoding to send for an Accept-Encoding header, by its q-values (`br;q=0, gzip` is gzip). When the
 * client refuses every one of ours (`*;q=0`, `identity;q=0`), the body goes unencoded: RFC 9110 allows it,
 * and an unreadable encoding or a 406 helps nobody.
 */
export function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return "identity";
  const known = chosen.get(header);
  if (known) return known;
  // Negotiator 1.x takes the server's order for ties; its types (0.6) do not know the option yet.
  const negotiator = new Negotiator({ headers: { "accept-encoding": header } }) as unknown as {
    encoding(available: string[], options: { preferred: string[] }): string | undefined;
  };
  const encoding = (negotiator.encoding(ours, { preferred: ours }) as Encoding | undefined) ?? "identity";
  if (chosen.size < MAX_REMEMBERED && header.length <= 256) chosen.set(header, encoding);
  return encoding;
}
