import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { json, readBody, sha256 } from "../oauth/fake-provider";

/**
 * A local stand-in for Discord (ADR 84) speaking the routes the role perk uses, strictly as Discord does:
 * OAuth 2 with PKCE (/oauth2/authorize, /oauth2/token), GET /users/@me with the reader's token, and the bot's
 * guild routes (PUT /guilds/{g}/members/{u} with the reader's token in the body, PUT/DELETE
 * /guilds/{g}/members/{u}/roles/{r}) with "Bot <token>". It keeps the guild's members and their roles,
 * records every call, and answers 429 with `retry_after` when told to.
 */

export type DiscordUser = { id: string; username: string; global_name: string | null };
export type Call = { method: string; path: string; status: number };

let counter = 0;
export function discordUser(overrides: Partial<DiscordUser> = {}): DiscordUser {
  counter++;
  return {
    id: String(BigInt(Date.now()) * 1000n + BigInt(counter)),
    username: `veil${counter}_${crypto.randomBytes(3).toString("hex")}`,
    global_name: null,
    ...overrides,
  };
}

export type FakeDiscord = {
  url: string;
  clientId: string;
  clientSecret: string;
  botToken: string;
  guildId: string;
  roles: { observer: string; analyst: string; first_human: string };
  /** Who approves the next authorization. */
  user: DiscordUser;
  /** The guild's members and their role ids. */
  members: Map<string, Set<string>>;
  calls: Call[];
  /** The next `count` guild calls answer 429 asking to wait `retryAfter` seconds. */
  rateLimit: (count: number, retryAfter: number) => void;
  /** The guild calls (not OAuth) recorded, as "METHOD path". */
  guildCalls: () => string[];
  env: () => Record<string, string>;
  close: () => Promise<void>;
};

type Grant = { redirectUri: string; challenge: string; user: DiscordUser; scope: string };

const snowflake = () => String(100_000_000_000_000_000n + BigInt(crypto.randomInt(1, 2 ** 47)));

/** Starts the stand-in on 127.0.0.1 on a free port; `redirectUri` is the one registered for the client. */
export async function startFakeDiscord({ redirectUri }: { redirectUri: string }): Promise<FakeDiscord> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  let limited = { count: 0, retryAfter: 0 };

  const fake: FakeDiscord = {
    url: "",
    clientId: snowflake(),
    clientSecret: crypto.randomBytes(16).toString("hex"),
    botToken: `bot.${crypto.randomBytes(24).toString("base64url")}`,
    guildId: snowflake(),
    roles: { observer: snowflake(), analyst: snowflake(), first_human: snowflake() },
    user: discordUser(),
    members: new Map(),
    calls: [],
    rateLimit: (count, retryAfter) => {
      limited = { count, retryAfter };
    },
    guildCalls: () =>
      fake.calls.filter((call) => call.path.startsWith("/guilds/")).map((c) => `${c.method} ${c.path}`),
    env: () => ({
      DISCORD_CLIENT_ID: fake.clientId,
      DISCORD_CLIENT_SECRET: fake.clientSecret,
      DISCORD_AUTHORIZE_URL: `${fake.url}/oauth2/authorize`,
      DISCORD_TOKEN_URL: `${fake.url}/oauth2/token`,
      DISCORD_API_URL: fake.url,
      DISCORD_BOT_TOKEN: fake.botToken,
      DISCORD_GUILD_ID: fake.guildId,
      DISCORD_ROLE_OBSERVER: fake.roles.observer,
      DISCORD_ROLE_ANALYST: fake.roles.analyst,
      DISCORD_ROLE_FIRST_HUMAN: fake.roles.first_human,
    }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const authorize = (url: URL, response: http.ServerResponse) => {
    const q = url.searchParams;
    if (q.get("client_id") !== fake.clientId) return json(response, 400, { error: "invalid_client" });
    if (q.get("redirect_uri") !== redirectUri) return json(response, 400, { error: "invalid_redirect_uri" });
    const back = new URL(redirectUri);
    const state = q.get("state") ?? "";
    const challenge = q.get("code_challenge") ?? "";
    if (
      q.get("response_type") !== "code" ||
      q.get("code_challenge_method") !== "S256" ||
      !/^[\w-]{43}$/.test(challenge)
    )
      back.search = new URLSearchParams({ error: "invalid_request", state }).toString();
    else {
      const code = crypto.randomBytes(24).toString("base64url");
      grants.set(code, { redirectUri, challenge, user: fake.user, scope: q.get("scope") ?? "" });
      back.search = new URLSearchParams({ code, state }).toString();
    }
    response.writeHead(302, { Location: back.toString() }).end();
  };

  const token = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const form = new URLSearchParams(await readBody(request));
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    const [id = "", secret = ""] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent);
    if (id !== fake.clientId || secret !== fake.clientSecret)
      return json(response, 401, { error: "invalid_client" });
    const code = form.get("code") ?? "";
    const grant = grants.get(code);
    grants.delete(code);
    if (!grant || form.get("redirect_uri") !== grant.redirectUri)
      return json(response, 400, { error: "invalid_grant" });
    if (sha256(form.get("code_verifier") ?? "") !== grant.challenge)
      return json(response, 400, { error: "invalid_grant" });
    const accessToken = crypto.randomBytes(24).toString("base64url");
    tokens.set(accessToken, grant);
    json(response, 200, {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 604800,
      scope: grant.scope,
    });
  };

  /** The guild routes; undefined when the path is not one of them. */
  const guild = async (request: http.IncomingMessage, path: string): Promise<[number, unknown?]> => {
    if (request.headers.authorization !== `Bot ${fake.botToken}`)
      return [401, { message: "401: Unauthorized", code: 0 }];
    const match = /^\/guilds\/(\d+)\/members\/(\d+)(?:\/roles\/(\d+))?$/.exec(path);
    if (!match || match[1] !== fake.guildId) return [404, { message: "Unknown Guild", code: 10004 }];
    const [, , userId = "", role] = match;
    const member = fake.members.get(userId);
    if (role) {
      if (!Object.values(fake.roles).includes(role)) return [404, { message: "Unknown Role", code: 10011 }];
      if (!member) return [404, { message: "Unknown Member", code: 10007 }];
      if (request.method === "PUT") member.add(role);
      else member.delete(role);
      return [204];
    }
    if (request.method !== "PUT") return [405, { message: "405: Method Not Allowed", code: 0 }];
    const body = JSON.parse((await readBody(request)) || "{}") as { access_token?: string; roles?: string[] };
    const grant = tokens.get(body.access_token ?? "");
    if (!grant || grant.user.id !== userId || !grant.scope.split(" ").includes("guilds.join"))
      return [403, { message: "Missing Access", code: 50001 }];
    if (member) return [204];
    fake.members.set(userId, new Set(body.roles ?? []));
    return [201, { user: grant.user, roles: body.roles ?? [] }];
  };

  const route = async (request: http.IncomingMessage, url: URL): Promise<[number, unknown?]> => {
    const path = url.pathname;
    if (path === "/users/@me" && request.method === "GET") {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
      const grant = tokens.get(bearer);
      return grant ? [200, grant.user] : [401, { message: "401: Unauthorized", code: 0 }];
    }
    if (path.startsWith("/guilds/")) {
      if (limited.count > 0) {
        limited.count--;
        return [
          429,
          { message: "You are being rate limited.", retry_after: limited.retryAfter, global: false },
        ];
      }
      return guild(request, path);
    }
    return [404, { message: "404: Not Found", code: 0 }];
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/oauth2/authorize") return authorize(url, response);
    if (url.pathname === "/oauth2/token") {
      fake.calls.push({ method: "POST", path: url.pathname, status: 0 });
      return void token(request, response).catch((error) => json(response, 500, { error: String(error) }));
    }
    void route(request, url)
      .then(([status, body]) => {
        fake.calls.push({ method: request.method ?? "", path: url.pathname, status });
        if (status === 429) {
          const retry = String(Math.ceil((body as { retry_after: number }).retry_after));
          response.writeHead(429, { "Content-Type": "application/json", "Retry-After": retry });
          return void response.end(JSON.stringify(body));
        }
        if (body === undefined) return void response.writeHead(status).end();
        json(response, status, body);
      })
      .catch((error) => json(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
