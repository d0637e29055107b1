import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, registerAndSignIn } from "../support/http";
import { decodeQuotedPrintable } from "../support/mail";
import { waitFor } from "../support/poll";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";
import { newReader } from "../support/unique";

/**
 * Accounts over HTTP against the built server, with a real SMTP server on loopback receiving the e-mails.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-auth-server-"));
const mails: { to: string; raw: string }[] = [];
let smtp: SMTPServer;
let server: RunningServer;
let origin = "";

/** The oldest e-mail to `to` not read yet (each is read once). */
function mailTo(to: string): Promise<string> {
  return waitFor(
    () => {
      const index = mails.findIndex((mail) => mail.to === to);
      const [found] = index === -1 ? [] : mails.splice(index, 1);
      return found && decodeQuotedPrintable(found.raw);
    },
    { what: `an e-mail to ${to}` },
  );
}

const reader = () => newReader("smtp", "first secret");

async function registered(client: Client, who = reader()) {
  const response = await registerAndSignIn(client, who, mailTo);
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe("/welcome");
  return who;
}

beforeAll(async () => {
  const smtpPort = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk) => {
        raw += chunk;
      });
      stream.on("end", () => {
        for (const recipient of session.envelope.rcptTo) mails.push({ to: recipient.address, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: origin,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  });
  await waitUntilReady(server);
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("password reset through a real SMTP server", () => {
  it("mails a link built from APP_ORIGIN (not the Host header) that resets once and signs in", async () => {
    const client = new Client(origin);
    const who = await registered(client);
    const anonymous = new Client(origin);

    // A request whose Host header names another site still gets a link to the configured origin.
    const body = new URLSearchParams({ email: who.email }).toString();
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${origin}/forgot-password`,
        {
          method: "POST",
          headers: {
            host: "evil.example",
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    expect(status).toBe(200);
    const mail = await mailTo(who.email);
    expect(mail).toContain("Subject: Reset your Crimson Covenant password");
    expect(mail).toMatch(/Content-Type: text\/plain/);
    expect(mail).not.toContain("evil.example");
    const link = new RegExp(`${origin.replace(/[.:/]/g, "\\$&")}/reset-password\\?token=[\\w-]+`).exec(
      mail,
    )?.[0];
    expect(link).toBeDefined();
    const token = new URL(link ?? "").searchParams.get("token") ?? "";

    // GET shows the form and does not consume the token.
    expect((await anonymous.get(`/reset-password?token=${token}`)).status).toBe(200);
    expect(await (await anonymous.get(`/reset-password?token=${token}`)).text()).toContain('name="token"');
    const reset = await anonymous.post("/reset-password", {
      token,
      password: "second secret",
      confirmPassword: "second secret",
    });
    expect(reset.status).toBe(302);
    expect(reset.headers.get("location")).toBe("/account");
    expect((await anonymous.get("/account")).status).toBe(200);
    // The old session ended with the reset.
    expect((await client.get("/account")).status).toBe(302);
    const again = await new Client(origin).post("/reset-password", {
      token,
      password: "third secret",
      confirmPassword: "third secret",
    });
    expect(again.status).toBe(400);
    const login = await new Client(origin).post("/login", { email: who.email, password: "second secret" });
    expect(login.headers.get("location")).toBe("/account");
  });

  it("answers an unknown e-mail exactly as a known one", async () => {
    const known = await registered(new Client(origin));
    const text = async (email: string) =>
      (await (await new Client(origin).post("/forgot-password", { email })).text())
        .replace(/nonce="[^"]+"/g, "")
        .replace(/"requestId":"[^"]+"/g, "");
    expect(await text(`nobody-${known.email}`)).toBe(await text(known.email));
  });
});

describe("sign-in", () => {
  it("throttles the 11th quick wrong password for one account from one address with 429 and a time to retry", async () => {
    const who = await registered(new Client(origin));
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await new Client(origin).post("/login", {
        email: who.email,
        password: `wrong ${attempt}`,
      });
      expect(response.status).toBe(401);
    }
    const throttled = await new Client(origin).post("/login", { email: who.email, password: who.password });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await throttled.text()).toContain("Too many attempts. Please try again in 1 minute.");
  });

  it("lets the owner in from a fresh address while 25 addresses guessing the account are held", async () => {
    const who = await registered(new Client(origin));
    const guess = (ip: string, password = "wrong guess") =>
      new Client(origin).post("/login", { email: who.email, password }, { "x-forwarded-for": ip });
    for (let i = 1; i <= 25; i++) expect((await guess(`198.51.100.${i}`)).status).toBe(401);
    // Each guessing address is held, even with the right password.
    for (const ip of ["198.51.100.1", "198.51.100.25"])
      expect((await guess(ip, who.password)).status).toBe(429);
    // A new guessing address gets one try.
    expect((await guess("203.0.113.50")).status).toBe(401);
    expect((await guess("203.0.113.50")).status).toBe(429);
    // The owner from an address that has not failed signs in.
    const owner = await guess("203.0.113.51", who.password);
    expect(owner.status).toBe(302);
    expect(owner.headers.get("location")).toBe("/account");
  }, 60_000);

  it.each(["//evil.example", "/\\evil.example", "https://evil.example/account"])(
    "keeps redirectTo=%s on site",
    async (target) => {
      const who = await registered(new Client(origin));
      const response = await new Client(origin).post("/login", {
        email: who.email,
        password: who.password,
        redirectTo: target,
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/account");
    },
  );

  it("follows a same-site redirectTo, sets a fresh HttpOnly SameSite=Lax cookie, and a logged-out cookie stops working", async () => {
    const who = await registered(new Client(origin));
    const client = new Client(origin);
    const before = client.cookieHeader;
    const response = await client.post("/login", {
      email: who.email,
      password: who.password,
      redirectTo: "/wiki?x=1",
    });
    expect(response.headers.get("location")).toBe("/wiki?x=1");
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("session="));
    expect(cookie).toMatch(/^session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(client.cookieHeader).not.toBe(before);
    const stolen = client.cookieHeader;
    expect((await client.get("/account")).status).toBe(200);
    await client.post("/logout", {});
    const replay = await fetch(`${origin}/account`, { headers: { cookie: stolen }, redirect: "manual" });
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toBe("/login?redirectTo=%2Faccount");
  });

  it("refuses a cross-site sign-in or logout POST", async () => {
    const response = await new Client(origin).post(
      "/login",
      { email: "a@b.example", password: "whatever1" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(response.status).toBe(403);
  });
});
