/**
 * Secrets that travel in URLs (reset tokens, OAuth codes and states, payment session ids) must never reach
 * a log line: an access log is read by more people, and kept longer, than the secrets stay valid.
 */
export const REDACTED = "[redacted]";

/**
 * Query parameters whose values are credentials or single-use secrets on any URL, matched case-insensitively:
 * besides what a route's rules name (`secrets`, app/routes.ts), as a 404, a typo or a provider's error
 * redirect carries them too.
 */
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
 * Where a URL's secrets are, as its route says: the path's secret segments (positions, 1 the first: the
 * test provider's checkout page /pay/test/<session id>, a reader's private feed /feed/private/<token>, ADR 44,
 * a release e-mail's /unsubscribe/<token>, ADR 45) and its secret query parameters.
 */
export type SecretsOf = (pathname: string) => { segments: readonly number[]; query: readonly string[] };

/** The URL (a path with its query, as an access log has it) with every secret value replaced. */
export function redactUrl(url: string | undefined, secretsOf: SecretsOf): string | undefined {
  if (url === undefined) return undefined;
  const queryAt = url.indexOf("?");
  let pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  const secrets = secretsOf(pathPart);
  if (secrets.segments.length) {
    const segments = pathPart.split("/");
    for (const position of secrets.segments) if (segments[position]) segments[position] = REDACTED;
    pathPart = segments.join("/");
  }
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
      const secret = secretParams.has(name.toLowerCase()) || secrets.query.includes(name);
      return secret ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
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
