import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/http";
import { waitFor } from "../support/poll";
import type { RunningServer } from "../support/server";
import { startServer } from "../support/server";
import { tempDir } from "../support/temp";
import { unique } from "../support/unique";

/**
 * The local outbox viewer (ADR 20) on the built server: there for the person running the site on their own
 * machine with no mail server, a 404 for everyone and everything else.
 */
const NOTE = "No mail server is set up";

function start(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer((url) => ({ DATA_DIR: tempDir("cc-outbox-"), APP_ORIGIN: url, ...env }));
}

/** The ids of the messages /outbox lists, newest first. */
const listedIds = (html: string) =>
  [...html.matchAll(/href="\/outbox\/([\w-]+)"/g)].map((m) => m[1] as string);

describe("on a local site with no SMTP_URL", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("registers, finds the welcome e-mail in /outbox, and its link confirms the reader's address", async () => {
    const client = new Client(server.url);
    const name = unique("outbox");
    const email = `${name}@example.com`;
    const registered = await client.post("/register", {
      username: name,
      email,
      password: "first secret",
      confirmPassword: "first secret",
      acceptTerms: "on",
    });
    expect(registered.status).toBe(302);
    expect(registered.headers.get("location")).toBe("/welcome");
    // The banner's page, where the reader waits for the e-mail, points to the local outbox.
    const waiting = await (await client.get("/confirm-email")).text();
    expect(waiting).toContain(NOTE);
    expect(waiting).toContain('href="/outbox"');

    // The e-mail is sent after the answer: the list is read again until it shows it.
    const id = await waitFor(
      async () => {
        const list = await client.get("/outbox");
        expect(list.status).toBe(200);
        expect(list.headers.get("cache-control")).toBe("private, no-store");
        expect(list.headers.get("x-robots-tag")).toBe("noindex");
        const html = await list.text();
        expect(html).toContain('<meta name="robots" content="noindex"/>');
        return html.includes(email) ? listedIds(html)[0] : undefined;
      },
      { what: `the e-mail to ${email} in /outbox` },
    );

    const message = await client.get(`/outbox/${id}`);
    expect(message.status).toBe(200);
    expect(message.headers.get("cache-control")).toBe("private, no-store");
    const html = await message.text();
    expect(html).toContain(email);
    expect(html).toContain("Welcome to");
    const link = /<a href="(http:\/\/127\.0\.0\.1:\d+\/confirm-email\?token=[\w-]+)"/.exec(html)?.[1];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    const page = await client.get(url.pathname + url.search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Confirm my e-mail address");
    const token = url.searchParams.get("token") ?? "";
    const confirmed = await client.post("/confirm-email", { intent: "confirm", token });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Your e-mail address is confirmed.");
  });

  it("shows the note after a reset request too", async () => {
    const client = new Client(server.url);
    const answer = await client.post("/forgot-password", { email: "nobody@example.com" });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(NOTE);
  });

  it.each([
    "/outbox/..%2f..%2fpgdata",
    "/outbox/..%2F..%2Fadmin.sock",
    "/outbox/%2e%2e%2fpgdata",
    "/outbox/2026-11-25T06-07-22-123Z-abc123.eml",
    "/outbox/2026-11-25T06-07-22-123Z-nothere",
    `/outbox/2026-11-25T06-07-22-123Z-${"a".repeat(5000)}`,
  ])("answers 404 for %.80s", async (url) => {
    const response = await fetch(`${server.url}${url}`);
    expect(response.status).toBe(404);
  });

  it("answers a NUL in the name with the edge's 400 (ADR 64)", async () => {
    expect((await fetch(`${server.url}/outbox/2026-11-25T06-07-22-123Z-abc123%00`)).status).toBe(400);
  });

  it("is a 404 for a client a loopback proxy says is elsewhere", async () => {
    const remote = { "x-forwarded-for": "203.0.113.7" };
    expect((await fetch(`${server.url}/outbox`, { headers: remote })).status).toBe(404);
    const answer = await new Client(server.url).post("/forgot-password", { email: "x@example.com" }, remote);
    expect(await answer.text()).not.toContain(NOTE);
  });
});

describe.each<[string, Record<string, string>]>([
  ["a public origin", { APP_ORIGIN: "https://example.test", PAYMENT_PROVIDER: "test" }],
  ["a mail server", { SMTP_URL: "smtp://127.0.0.1:9" }],
])("with %s", (_, env) => {
  it("has no /outbox and no note", async () => {
    const server = await start(env);
    try {
      const id = "2026-11-25T06-07-22-123Z-abc123";
      fs.mkdirSync(path.join(server.env.DATA_DIR as string, "outbox"), { recursive: true });
      fs.writeFileSync(
        path.join(server.env.DATA_DIR as string, "outbox", `${id}.eml`),
        "Subject: s\n\nsecret",
      );
      expect((await fetch(`${server.url}/outbox`)).status).toBe(404);
      expect((await fetch(`${server.url}/outbox/${id}`)).status).toBe(404);
      const answer = await new Client(server.url).post(
        "/forgot-password",
        { email: "x@example.com" },
        { origin: env.APP_ORIGIN ?? server.url },
      );
      expect(await answer.text()).not.toContain(NOTE);
    } finally {
      await server.stop();
    }
    // It starts a server of its own, which takes most of the default 30 s on a busy machine.
  }, 60_000);
});
