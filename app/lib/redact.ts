/**
 * Secrets that travel in URLs (reset tokens, OAuth codes and states, payment session ids) must never reach
 * a log line: an access log is read by more people, and kept longer, than the secrets stay valid.
 */
export const REDACTED = "[redacted]";

/** Query parameters whose values are credentials or single-use secrets, matched case-insensitively. */
const secretParams = new Set([
  "token",
  "code",
  "state",
  "session",
  "session_id",
  "sessionid",
  "sid",
  "secret",
  "password",
  "key",
  "signature",
  "access_token",
  "refresh_token",
  "id_token",
  "code_verifier",
]);

/**
 * Path segments that are themselves secrets: the test provider's checkout page is /pay/test/<session id>, a
 * reader's private feed /feed/private/<token> (ADR 44), a release e-mail's /unsubscribe/<token> (ADR 45).
 */
const secretPaths: RegExp[] = [
  /^(\/pay\/[^/?#]+\/)[^/?#]+/,
  /^(\/feed\/private\/)[^/?#]+/,
  /^(\/unsubscribe\/)[^/?#]+/,
];

/** The URL (a path with its query, as an access log has it) with every secret value replaced. */
export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const queryAt = url.indexOf("?");
  let pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const pattern of secretPaths) pathPart = pathPart.replace(pattern, `$1${REDACTED}`);
  if (queryAt === -1) return pathPart;
  // Rewritten by hand, not through URLSearchParams, so the rest of the query stays byte for byte as sent.
  const query = url
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals === -1) return pair;
      let name = pair.slice(0, equals);
      try {
        name = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed escape is logged as sent; its name is compared undecoded.
      }
      return secretParams.has(name.toLowerCase()) ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
    })
    .join("&");
  return `${pathPart}?${query}`;
}

/** Field paths pino censors in every log line (its `redact` option), whatever module logs them. */
export const redactedLogPaths = [
  "token",
  "*.token",
  "link",
  "*.link",
  "password",
  "*.password",
  "cookie",
  "*.cookie",
  "headers.cookie",
  "*.headers.cookie",
  "headers.authorization",
  "*.headers.authorization",
  "accessToken",
  "codeVerifier",
];
