import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/env.server";
import {
  isLoopbackIp,
  isOutboxId,
  LIST_LIMIT,
  listOutbox,
  outboxAllowed,
  parseEml,
  readOutboxMessage,
} from "./outbox.server";

/** A message exactly as the outbox mailer writes it (nodemailer's stream transport). */
async function eml(message: { to: string; subject: string; text: string; html?: string }) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await transport.sendMail({ from: "Site <no-reply@localhost>", html: "<p>hi</p>", ...message });
  return (info.message as Buffer).toString("utf8");
}

describe("the local outbox guard", () => {
  const local = { smtpUrl: undefined, origin: "http://localhost:3000", ip: "127.0.0.1" };

  it("is on with no SMTP_URL, a loopback origin and a loopback client", () => {
    expect(outboxAllowed(local)).toBe(true);
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:3000"])
      for (const ip of ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"])
        expect(outboxAllowed({ ...local, origin, ip }), `${origin} ${ip}`).toBe(true);
  });

  it("is on for `npm start`'s defaults (APP_ORIGIN unset)", () => {
    const env = parseEnv({ PORT: "3000" });
    expect(outboxAllowed({ smtpUrl: env.SMTP_URL, origin: env.origin, ip: "127.0.0.1" })).toBe(true);
  });

  it("is off when a mail server is configured", () => {
    const env = parseEnv({ SMTP_URL: "smtp://mail.example.test:25" });
    expect(outboxAllowed({ smtpUrl: env.SMTP_URL, origin: env.origin, ip: "127.0.0.1" })).toBe(false);
  });

  it.each([
    "https://example.test",
    "http://example.test:3000",
    "http://localhost.example.test",
    "http://127.0.0.1.nip.io",
    "http://192.168.1.10:3000",
    "http://0.0.0.0:3000",
    "not a url",
  ])("is off for the origin %s", (origin) => {
    expect(outboxAllowed({ ...local, origin })).toBe(false);
  });

  it.each([
    "192.168.1.10",
    "10.0.0.1",
    "::ffff:192.168.1.10",
    "fe80::1",
    "0.0.0.0",
    "::",
    "unknown",
    "",
    "127.0.0.1.example.test",
    "128.0.0.1",
  ])("is off for the client %j", (ip) => {
    expect(isLoopbackIp(ip)).toBe(false);
    expect(outboxAllowed({ ...local, ip })).toBe(false);
  });
});

describe("outbox message ids", () => {
  it.each([
    ["2026-11-25T06-07-22-123Z-abc123", true],
    ["2026-11-25T06-07-22-123Z-a", true],
    ["2026-11-25T06-07-22-123Z-abc123.eml", false],
    ["2026-11-25T06-07-22-123Z-ABC123", false],
    ["2026-11-25T06-07-22-123Z-", false],
    ["..", false],
    ["../../etc/passwd", false],
    ["..%2f..%2fetc%2fpasswd", false],
    ["2026-11-25T06-07-22-123Z-abc123/..", false],
    ["2026-11-25T06-07-22-123Z-abc\u0000123", false],
    ["2026-11-25T06-07-22-123Z-abc123\u0000", false],
    ["2026-11-25T06-07-22-123Z-abc123\n", false],
    [`2026-11-25T06-07-22-123Z-${"a".repeat(17)}`, false],
    [`2026-11-25T06-07-22-123Z-${"a".repeat(10_000)}`, false],
    ["", false],
  ])("%j → %s", (id, valid) => {
    expect(isOutboxId(id)).toBe(valid);
  });
});

describe("reading the outbox", () => {
  it("decodes a message's headers and text part, quoted-printable and UTF-8 included", async () => {
    const link = "http://localhost:3000/login?redirectTo=%2Fwelcome";
    const text = `こんにちは、ようこそ。 A long line so that quoted-printable wraps it somewhere: ${link}\n\n— 血の契約`;
    const parsed = await parseEml(
      await eml({ to: "reader@example.test", subject: "ようこそ 血の契約 へ", text }),
    );
    expect(parsed).toEqual({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      to: "reader@example.test",
      subject: "ようこそ 血の契約 へ",
      text,
    });
  });

  it("reads plain ASCII (7bit) and base64 encoded words", async () => {
    expect((await parseEml(await eml({ to: "a@b.test", subject: "Welcome", text: "Hi there" }))).text).toBe(
      "Hi there",
    );
    const encoded = await parseEml("Subject: =?UTF-8?B?w6l0w6k=?= =?UTF-8?Q?_=C3=A0?=\n\nx");
    expect(encoded.subject).toBe("été à");
  });

  it("shows no HTML: an HTML-only message has no text", async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    const info = await transport.sendMail({
      to: "a@b.test",
      subject: "x",
      html: "<p>Only in <b>HTML</b></p><script>alert(1)</script>",
    });
    expect((await parseEml((info.message as Buffer).toString("utf8"))).text).toBe("");
  });

  it("never fails on a broken file", async () => {
    for (const raw of [
      "",
      "\n\n",
      "garbage",
      'Content-Type: multipart/mixed; boundary="b"\n\n--b',
      "Date: x\n",
    ])
      await expect(parseEml(raw)).resolves.toMatchObject({ date: null });
  });

  it("lists the newest first, ignores other files, caps the list, and reads only valid ids", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-outbox-"));
    const older = "2026-11-25T06-07-22-123Z-aaaaaa";
    const newer = "2026-11-25T07-00-00-000Z-bbbbbb";
    fs.writeFileSync(
      path.join(dir, `${older}.eml`),
      await eml({ to: "old@x.test", subject: "Old", text: "o" }),
    );
    fs.writeFileSync(
      path.join(dir, `${newer}.eml`),
      await eml({ to: "new@x.test", subject: "New", text: "n" }),
    );
    fs.writeFileSync(path.join(dir, "notes.txt"), "not a message");
    fs.writeFileSync(path.join(dir, "2026-11-25T08-00-00-000Z-huge1.eml"), "x".repeat(600 * 1024));
    fs.writeFileSync(path.join(os.tmpdir(), "cc-outbox-secret.eml"), "Subject: secret\n\nsecret");

    const list = await listOutbox(dir);
    expect(list.map((m) => [m.subject, m.to])).toEqual([
      ["New", "new@x.test"],
      ["Old", "old@x.test"],
    ]);
    expect((await readOutboxMessage(newer, dir))?.text).toBe("n");
    expect(await readOutboxMessage("../cc-outbox-secret", dir)).toBeUndefined();
    expect(await readOutboxMessage("2026-11-25T08-00-00-000Z-huge1", dir)).toBeUndefined();
    expect(await readOutboxMessage("2026-11-25T09-00-00-000Z-gone", dir)).toBeUndefined();
    expect(await listOutbox(path.join(dir, "missing"))).toEqual([]);

    for (let i = 0; i < LIST_LIMIT + 5; i++)
      fs.writeFileSync(
        path.join(dir, `2026-11-26T00-00-00-${String(i).padStart(3, "0")}Z-x.eml`),
        "Subject: s\n\n",
      );
    expect(await listOutbox(dir)).toHaveLength(LIST_LIMIT);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
