/**
 * Text PostgreSQL cannot store: a NUL (U+0000, refused by `text` and `jsonb` on both drivers with 22021 or
 * 22P05) or a lone surrogate (half of a UTF-16 pair, which no UTF-8 encodes; the drivers would swap it for
 * U+FFFD, so what is stored would not be what was sent). Percent-decoding never yields a lone surrogate
 * (malformed UTF-8 becomes U+FFFD); a JSON `\ud800` escape does. The server refuses such text wherever a
 * request carries it (server/text-input.ts, ADR 64), the command line in what it is given.
 */
const LONE_SURROGATE = /\p{Cs}/u;

export function isUnstorableText(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}
