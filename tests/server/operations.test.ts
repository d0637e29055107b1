import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerAndSignIn } from "../support/http";
import { waitForMail } from "../support/mail";
import { waitFor } from "../support/poll";
import { type RunningServer, startServer } from "../support/server";
import { newReader, unique } from "../support/unique";

/**
 * What an operator relies on, over HTTP against the built server at LOG_LEVEL=info: no secret in any log
 * line, one JSON line per security event with its request id and IP, the session rotated at sign-in,
 * registration that signs in (an address with an account is told so), and the sign-up, reset and per-IP
 * sign-in throttles.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-operations-"));
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    SIGNUP_LIMIT_PER_HOUR: "3",
    RESET_LIMIT_PER_HOUR: "2",
  });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let n = 0;
/** A reader unique to this run, and an address of its own (X-Forwarded-For from loopback is trusted). */
function reader() {
  n++;
  return { ...newReader("ops", "first secret"), ip: `203.0.113.${n}` };
}

const mail = (to: string) => waitForMail(dataDir, to);

/** Waits for an e-mail to `to` containing `text` (decoded), among all of the outbox's. */
const mailWith = (to: string, text: string) => waitForMail(dataDir, to, { containing: text });

async function signedIn(who = reader()) {
  const client = new Client(server.url);
  const response = await registerAndSignIn(client, who, mail, { "x-forwarded-for": who.ip });
  expect(response.status).toBe(302);
  return { client, who };
}

/** The log's JSON lines (stdout) so far. */
function logLines(): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits for a log line with these fields (the log is written as the work ends, after the answer). */
function logLine(fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  return waitFor(
    () => logLines().find((line) => Object.entries(fields).every(([key, value]) => line[key] === value)),
    { what: `a log line with ${JSON.stringify(fields)}` },
  );
}

const sessionOf = (client: Client) => client.cookies.get("session") ?? "";

describe("secrets never reach the log", () => {
  it("through a full password reset and a coin purchase: no reset token, session cookie or payment session", async () => {
    const { client, who } = await signedIn();
    const firstSession = sessionOf(client);
    expect(firstSession).not.toBe("");

    expect(
      (await client.post("/forgot-password", { email: who.email }, { "x-forwarded-for": who.ip })).status,
    ).toBe(200);
    // The welcome e-mail came first; the reset one is the one with the link.
    const resetMail = await mailWith(who.email, "/reset-password?token=");
    const token = /reset-password\?token=([\w-]+)/.exec(resetMail)?.[1] ?? "";
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect((await client.get(`/reset-password?token=${token}`)).status).toBe(200);
    expect((await client.get(`/reset-password.data?token=${token}`)).status).toBe(200);
    const reset = await client.post("/reset-password", {
      token,
      password: "second secret",
      confirmPassword: "second secret",
    });
    expect(reset.status).toBe(302);
    const secondSession = sessionOf(client);
    expect(secondSession).not.toBe(firstSession);

    const bought = await client.post("/coins", { packKey: "coins-5" });
    const checkout = bought.headers.get("location") ?? "";
    const paymentSession = /^\/pay\/test\/(.+)$/.exec(checkout)?.[1] ?? "";
    expect(paymentSession).toMatch(/^tps_/);
    expect((await client.get(checkout)).status).toBe(200);
    expect((await client.post(checkout, { decision: "approve" })).status).toBe(302);

    await logLine({ event: "ledger.entry", reason: "purchase" });
    await logLine({ method: "POST", status: 302, url: "/pay/test/[redacted]" });
    const log = server.output();
    // The requests were logged, with their secrets replaced.
    expect(log).toContain("/reset-password?token=[redacted]");
    expect(log).toContain("/pay/test/[redacted]");
    for (const secret of [token, firstSession, secondSession, paymentSession])
      expect(log).not.toContain(secret);
  });
});

describe("operator events: one JSON line each, with the request id and IP", () => {
  it("the access log names the address the loopback proxy saw, not one the client wrote in front of it", async () => {
    const response = await new Client(server.url).get("/about", {
      "x-forwarded-for": "203.0.113.66, 198.51.100.23",
      "x-request-id": "forwarded-ip-check",
    });
    expect(response.status).toBe(200);
    const line = await logLine({ requestId: "forwarded-ip-check", url: "/about" });
    expect(line.ip).toBe("198.51.100.23");
  });

  it("sign-in failure, reset request and completion, revocation and ledger entries", async () => {
    const { who } = await signedIn();
    const failed = await new Client(server.url).post(
      "/login",
      { email: who.email, password: "not it" },
      { "x-forwarded-for": "198.51.100.23", "x-request-id": "ops-failed-sign-in" },
    );
    expect(failed.status).toBe(401);
    expect(await logLine({ event: "sign-in.failed", requestId: "ops-failed-sign-in" })).toMatchObject({
      ip: "198.51.100.23",
    });

    await new Client(server.url).post(
      "/forgot-password",
      { email: who.email },
      { "x-forwarded-for": "198.51.100.24", "x-request-id": "ops-reset-request" },
    );
    expect(
      await logLine({ event: "password-reset.requested", requestId: "ops-reset-request" }),
    ).toMatchObject({
      ip: "198.51.100.24",
      known: true,
    });
    expect(await logLine({ event: "ledger.entry", reason: "welcome", ip: who.ip })).toHaveProperty(
      "requestId",
    );
    expect(await logLine({ event: "signed-in", ip: who.ip })).toHaveProperty("requestId");
  });
});

describe("sign-in ends the session the browser held (session fixation)", () => {
  it("the old session no longer works after signing in again", async () => {
    const { client, who } = await signedIn();
    const first = client.cookieHeader;
    expect((await client.get("/account")).status).toBe(200);
    const again = await client.post("/login", { email: who.email, password: who.password });
    expect(again.status).toBe(302);
    expect(client.cookieHeader).not.toBe(first);
    const replay = await fetch(`${server.url}/account`, { headers: { cookie: first }, redirect: "manual" });
    expect(replay.status).toBe(302);
    expect((await client.get("/account")).status).toBe(200);
    await logLine({ event: "session.revoked", reason: "sign-in" });
  });
});

describe("registration (ADR 56)", () => {
  it("signs a new reader in; an address that has an account is told so, with no session, within the IP's limit", async () => {
    const { who } = await signedIn();
    const attempt = async (email: string, ip: string) => {
      const response = await new Client(server.url).post(
        "/register",
        {
          username: unique("other"),
          email,
          password: "someone else's",
          confirmPassword: "someone else's",
          acceptTerms: "on",
        },
        { "x-forwarded-for": ip },
      );
      return {
        status: response.status,
        location: response.headers.get("location"),
        cookies: response.headers.getSetCookie(),
        body: await response.text(),
      };
    };
    const taken = await attempt(who.email.toUpperCase(), "198.51.100.31");
    expect(taken.status).toBe(400);
    expect(taken.cookies).toEqual([]);
    expect(taken.body).toContain("An account with this e-mail address already exists.");
    expect(taken.body).toContain('href="/forgot-password"');
    await logLine({ event: "registration.existing-email", ip: "198.51.100.31" });
    const fresh = await attempt(`${unique("fresh")}@example.com`, "198.51.100.32");
    expect(fresh).toMatchObject({ status: 302, location: "/welcome" });
    expect(fresh.cookies.some((cookie) => cookie.startsWith("session="))).toBe(true);
    await logLine({ event: "signed-in", method: "registration", ip: "198.51.100.32" });
  });
});

describe("throttles", () => {
  const form = (i: number) => ({
    ...newReader(`burst${i}_`, "first secret"),
    confirmPassword: "first secret",
    acceptTerms: "on",
  });

  it("refuses the 4th sign-up from one IP with SIGNUP_LIMIT_PER_HOUR=3, and logs it", async () => {
    const ip = "192.0.2.41";
    for (let i = 0; i < 3; i++)
      expect(
        (await new Client(server.url).post("/register", form(i), { "x-forwarded-for": ip })).status,
      ).toBe(302);
    const refused = await new Client(server.url).post("/register", form(3), { "x-forwarded-for": ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect(
      (await new Client(server.url).post("/register", form(4), { "x-forwarded-for": "192.0.2.42" })).status,
    ).toBe(302);
    await logLine({ event: "throttled", ip });
  });

  it("refuses the 3rd reset request from one IP with RESET_LIMIT_PER_HOUR=2", async () => {
    const ip = "192.0.2.51";
    const ask = () =>
      new Client(server.url).post(
        "/forgot-password",
        { email: "nobody@example.com" },
        { "x-forwarded-for": ip },
      );
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses sign-in from an IP after 50 failures across accounts", async () => {
    const ip = "192.0.2.61";
    for (let i = 0; i < 50; i++) {
      const response = await new Client(server.url).post(
        "/login",
        { email: `spray${i}@example.com`, password: "guess guess" },
        { "x-forwarded-for": ip },
      );
      expect(response.status).toBe(401);
    }
    const refused = await new Client(server.url).post(
      "/login",
      { email: "spray-last@example.com", password: "guess guess" },
      { "x-forwarded-for": ip },
    );
    expect(refused.status).toBe(429);
  }, 60_000);
});
