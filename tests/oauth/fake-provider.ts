import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local OAuth 2 authorization server that speaks the real protocol (RFC 6749 code flow + RFC 7636 PKCE),
 * strictly: it checks what Discord and Google check, so the app's side of the flow is tested for real.
 * The "user" approves at once; `profile` is who they are at the provider.
 */

export type DiscordProfile = {
  id: string;
  username: string;
  global_name: string | null;
  email: string | null;
  verified: boolean;
};

export type GoogleProfile = {
  sub: string;
  name: string;
  email?: string;
  email_verified?: boolean;
};

export type ProviderKind = "discord" | "google";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export function discordProfile(overrides: Partial<DiscordProfile> = {}): DiscordProfile {
  const id = String(BigInt(Date.now()) * 1000n + BigInt(counter++));
  return {
    id,
    username: `nyx${unique()}`,
    global_name: "Nyx of the Veil",
    email: `nyx${unique()}@example.com`,
    verified: true,
    ...overrides,
  };
}

export function googleProfile(overrides: Partial<GoogleProfile> = {}): GoogleProfile {
  return {
    sub: String(100_000_000_000 + Math.floor(Math.random() * 1e9)) + String(counter++),
    name: "Ilse Varga",
    email: `ilse${unique()}@example.com`,
    email_verified: true,
    ...overrides,
  };
}

type Grant = {
  clientId: string;
  redirectUri: string;
  challenge: string;
  profile: object;
  expiresAt: number;
};

export type TokenAttempt = { ok: boolean; error?: string };

export type FakeProvider = {
  kind: ProviderKind;
  url: string;
  clientId: string;
  clientSecret: string;
  /** The profile the next authorization is issued for. */
  profile: object;
  /** Answer /authorize with this OAuth error (e.g. access_denied) instead of a code. */
  denyWith: string | undefined;
  /** Every /token request and how it ended, newest last. */
  tokenAttempts: TokenAttempt[];
  /** The environment that points the app at this provider. */
  env: () => Record<string, string>;
  close: () => Promise<void>;
};

export const sha256 = (value: string) => crypto.createHash("sha256").update(value).digest("base64url");

export function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

export function json(response: http.ServerResponse, status: number, value: unknown) {
  response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  response.end(JSON.stringify(value));
}

/** Starts a provider on 127.0.0.1 on a free port. `redirectUri` is the one registered for the client. */
export async function startFakeProvider(
  kind: ProviderKind,
  { redirectUri }: { redirectUri: string },
): Promise<FakeProvider> {
  const clientId = `client-${kind}-${crypto.randomBytes(4).toString("hex")}`;
  const clientSecret = crypto.randomBytes(16).toString("hex");
  const grants = new Map<string, Grant>();
  const usedCodes = new Set<string>();
  const tokens = new Map<string, object>();

  const provider: FakeProvider = {
    kind,
    url: "",
    clientId,
    clientSecret,
    profile: kind === "discord" ? discordProfile() : googleProfile(),
    denyWith: undefined,
    tokenAttempts: [],
    env: () => {
      const prefix = kind.toUpperCase();
      return {
        [`${prefix}_CLIENT_ID`]: clientId,
        [`${prefix}_CLIENT_SECRET`]: clientSecret,
        [`${prefix}_AUTHORIZE_URL`]: `${provider.url}/authorize`,
        [`${prefix}_TOKEN_URL`]: `${provider.url}/token`,
        [`${prefix}_USERINFO_URL`]: `${provider.url}/userinfo`,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const authorize = (url: URL, response: http.ServerResponse) => {
    const q = url.searchParams;
    // Like the real ones, a bad client or redirect_uri is an error page, never a redirect to an unknown URI.
    if (q.get("client_id") !== clientId) return json(response, 400, { error: "invalid_client" });
    if (q.get("redirect_uri") !== redirectUri) return json(response, 400, { error: "invalid_redirect_uri" });
    const back = new URL(redirectUri);
    const state = q.get("state");
    const fail = (error: string) => {
      back.search = new URLSearchParams({ error, ...(state ? { state } : {}) }).toString();
      response.writeHead(302, { Location: back.toString() }).end();
    };
    if (q.get("response_type") !== "code") return fail("unsupported_response_type");
    const challenge = q.get("code_challenge");
    if (q.get("code_challenge_method") !== "S256" || !challenge || !/^[\w-]{43}$/.test(challenge))
      return fail("invalid_request");
    if (!q.get("scope")) return fail("invalid_scope");
    if (provider.denyWith) return fail(provider.denyWith);
    const code = crypto.randomBytes(24).toString("base64url");
    grants.set(code, {
      clientId,
      redirectUri,
      challenge,
      profile: provider.profile,
      expiresAt: Date.now() + 60_000,
    });
    back.search = new URLSearchParams({ code, ...(state ? { state } : {}) }).toString();
    response.writeHead(302, { Location: back.toString() }).end();
  };

  const token = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const refuse = (status: number, error: string) => {
      provider.tokenAttempts.push({ ok: false, error });
      json(response, status, { error });
    };
    if (!request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded"))
      return refuse(400, "invalid_request");
    const form = new URLSearchParams(await readBody(request));
    let id = form.get("client_id");
    let secret = form.get("client_secret");
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (basic) {
      const [user = "", password = ""] = Buffer.from(basic, "base64").toString().split(":");
      [id, secret] = [decodeURIComponent(user), decodeURIComponent(password)];
    }
    if (id !== clientId || secret !== clientSecret) return refuse(401, "invalid_client");
    if (form.get("grant_type") !== "authorization_code") return refuse(400, "unsupported_grant_type");
    const code = form.get("code") ?? "";
    const grant = grants.get(code);
    // A code is good once, whatever happens to that attempt.
    grants.delete(code);
    if (!grant || usedCodes.has(code) || grant.expiresAt < Date.now()) return refuse(400, "invalid_grant");
    usedCodes.add(code);
    if (grant.clientId !== id || form.get("redirect_uri") !== grant.redirectUri)
      return refuse(400, "invalid_grant");
    const verifier = form.get("code_verifier") ?? "";
    if (!/^[\w.~-]{43,128}$/.test(verifier) || sha256(verifier) !== grant.challenge)
      return refuse(400, "invalid_grant");
    const accessToken = crypto.randomBytes(24).toString("base64url");
    tokens.set(accessToken, grant.profile);
    provider.tokenAttempts.push({ ok: true });
    json(response, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 3600 });
  };

  const userinfo = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const profile = bearer ? tokens.get(bearer) : undefined;
    if (!profile) return json(response, 401, { error: "invalid_token" });
    json(response, 200, profile);
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", provider.url || "http://127.0.0.1");
    const route = `${request.method} ${url.pathname}`;
    const done = (error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: String(error) });
    };
    if (route === "GET /authorize") return authorize(url, response);
    if (route === "POST /token") return void token(request, response).catch(done);
    if (route === "GET /userinfo") return userinfo(request, response);
    json(response, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return provider;
}

/** Plays the browser at the provider: follows the authorize URL and returns where it sends the reader back. */
export async function approve(authorizeUrl: string): Promise<URL> {
  const response = await fetch(authorizeUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (response.status !== 302 || !location)
    throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
  return new URL(location);
}
