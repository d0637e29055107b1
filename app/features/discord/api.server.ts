import { z } from "zod";
import { logger } from "~/lib/logger.server";
import type { DiscordConfig } from "./config.server";

/**
 * Discord's REST API, as the bot (ADR 84). A 429 says how long to wait (`retry_after`, seconds, in the body;
 * `Retry-After` in the headers): the request is tried again after that, a bounded number of times; past the
 * bound it fails, and the reconcile job tries the change again on a later tick.
 */

export const MAX_ATTEMPTS = 3;
/** A wait longer than this is not waited for: the reconcile job comes back sooner. */
export const MAX_WAIT_MS = 30_000;
const TIMEOUT_MS = 10_000;

/** How a retry waits; tests put a recording one in (no test sleeps). */
export type Wait = (ms: number) => Promise<void>;
const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let wait: Wait = realWait;

/** Replaces the wait between retries (undefined: the real timer again). For tests. */
export function setDiscordWait(next: Wait | undefined): void {
  wait = next ?? realWait;
}

export class DiscordApiError extends Error {
  override name = "DiscordApiError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const rateLimitBody = z.object({ retry_after: z.number().min(0).max(86_400) });

/** How long a 429 asks to wait, in ms: the body's float seconds, else the header's, else a second. */
export async function retryAfterMs(response: Response): Promise<number> {
  const parsed = rateLimitBody.safeParse(await response.json().catch(() => undefined));
  if (parsed.success) return Math.ceil(parsed.data.retry_after * 1000);
  const header = Number(response.headers.get("retry-after"));
  return Number.isFinite(header) && header >= 0 ? Math.ceil(header * 1000) : 1000;
}

type Call = {
  method: "GET" | "PUT" | "DELETE";
  path: string;
  /** The reader's own token (GET /users/@me) instead of the bot's. */
  bearer?: string;
  body?: unknown;
  /** Why the role changes, for the guild's audit log. */
  reason?: string;
};

/** One call, retried on 429 within the bounds; returns the response (any status but 429) or throws. */
export async function discordRequest(config: DiscordConfig, call: Call): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const headers: Record<string, string> = {
      Authorization: call.bearer ? `Bearer ${call.bearer}` : `Bot ${config.botToken}`,
      Accept: "application/json",
    };
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    if (call.reason) headers["X-Audit-Log-Reason"] = encodeURIComponent(call.reason);
    const response = await fetch(`${config.apiUrl}${call.path}`, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.status !== 429) return response;
    const delay = await retryAfterMs(response);
    if (attempt >= MAX_ATTEMPTS || delay > MAX_WAIT_MS) {
      throw new DiscordApiError(429, `rate limited on ${call.method} ${call.path} (retry after ${delay} ms)`);
    }
    logger.info({ event: "discord.rate-limited", path: call.path, delay, attempt }, "Discord rate limit");
    await wait(delay);
  }
}

/** The call, which must answer one of `ok` (else a DiscordApiError with its status). */
export async function expectStatus(config: DiscordConfig, call: Call, ok: number[]): Promise<Response> {
  const response = await discordRequest(config, call);
  if (!ok.includes(response.status)) {
    const text = (await response.text().catch(() => "")).slice(0, 200);
    throw new DiscordApiError(
      response.status,
      `${call.method} ${call.path} answered ${response.status}: ${text}`,
    );
  }
  return response;
}

const guildPath = (config: DiscordConfig, userId: string) =>
  `/guilds/${config.guildId}/members/${encodeURIComponent(userId)}`;

/**
 * Adds the reader to the guild with their role (guilds.join: their access token in the body, the bot's in
 * the header). 201: added; 204: already a member, whose roles this call leaves alone.
 */
export async function joinGuild(
  config: DiscordConfig,
  userId: string,
  accessToken: string,
  role: string | null,
): Promise<"added" | "member"> {
  const response = await expectStatus(
    config,
    {
      method: "PUT",
      path: guildPath(config, userId),
      body: { access_token: accessToken, ...(role ? { roles: [role] } : {}) },
    },
    [200, 201, 204],
  );
  return response.status === 204 ? "member" : "added";
}

/** Gives or takes one role; a member who left the guild (404) has nothing to take. */
export async function setRole(
  config: DiscordConfig,
  userId: string,
  role: string,
  give: boolean,
): Promise<void> {
  await expectStatus(
    config,
    {
      method: give ? "PUT" : "DELETE",
      path: `${guildPath(config, userId)}/roles/${encodeURIComponent(role)}`,
      reason: give ? "Supporter tier role" : "Supporter tier changed or lapsed",
    },
    give ? [204] : [204, 404],
  );
}

const discordUser = z.object({
  id: z.string().regex(/^\d{1,20}$/),
  username: z.string().min(1).max(100),
  global_name: z.string().max(100).nullish(),
});

/** Who authorized: GET /users/@me with their token. */
export async function currentUser(
  config: DiscordConfig,
  accessToken: string,
): Promise<{ id: string; username: string }> {
  const response = await expectStatus(
    config,
    { method: "GET", path: "/users/@me", bearer: accessToken },
    [200],
  );
  const user = discordUser.parse(await response.json());
  return { id: user.id, username: user.global_name || user.username };
}
