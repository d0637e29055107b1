import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { simpleParser } from "mailparser";
import type { RequestContext } from "~/lib/context";
import { getEnv } from "~/lib/env.server";

/**
 * The local outbox viewer (/outbox, ADR 20): the `.eml` files the outbox mailer writes when no SMTP_URL is set,
 * shown to the person running the site on their own machine so a sign-up or a reset can be finished in the
 * browser. Those messages hold live sign-in and reset links, so it exists only when every condition holds:
 * no mail server, a loopback origin, and a request from a loopback address. Anywhere else it is a 404.
 */

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** 127.0.0.0/8, ::1, and IPv4 loopback seen through a dual-stack socket (::ffff:127.x.y.z). */
export function isLoopbackIp(ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  if (net.isIPv4(v4)) return v4.startsWith("127.");
  return net.isIPv6(ip) && (ip === "::1" || ip === "0:0:0:0:0:0:0:1");
}

/** The guard's decision from its three inputs, apart from where they come from (for tests). */
export function outboxAllowed({
  smtpUrl,
  origin,
  ip,
}: {
  smtpUrl: string | undefined;
  origin: string;
  ip: string;
}): boolean {
  if (smtpUrl) return false;
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(host) && isLoopbackIp(ip);
}

/** Whether this request may see the local outbox (and the pages that point to it may show the link). */
export function localOutboxAvailable(context: Pick<RequestContext, "ip">): boolean {
  const env = getEnv();
  return outboxAllowed({ smtpUrl: env.SMTP_URL, origin: env.origin, ip: context.ip });
}

/** A message's id is its file name without `.eml`, as the outbox mailer makes it: a time stamp and a tag. */
const ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[a-z0-9]{1,16}$/;
const MAX_ID_LENGTH = 64;

/** Only names the mailer could have written: no separators, dots, NUL or anything else that leaves the folder. */
export function isOutboxId(id: string): boolean {
  return id.length <= MAX_ID_LENGTH && ID_PATTERN.test(id);
}

/** Messages listed at most (newest first): a long-running local site can gather thousands. */
export const LIST_LIMIT = 200;
/** Bigger files are not the mailer's (its messages are a few kilobytes): skipped, never read whole. */
const MAX_FILE_BYTES = 512 * 1024;

export type OutboxSummary = { id: string; date: string | null; to: string; subject: string };
export type OutboxMessage = OutboxSummary & { text: string };

function outboxDir(): string {
  return path.join(getEnv().dataDir, "outbox");
}

async function readMessageFile(dir: string, id: string): Promise<string | undefined> {
  const file = path.join(dir, `${id}.eml`);
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The newest messages first (their names start with the time they were written). */
export async function listOutbox(dir = outboxDir()): Promise<OutboxSummary[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const ids = names
    .filter((name) => name.endsWith(".eml"))
    .map((name) => name.slice(0, -4))
    .filter(isOutboxId)
    .sort()
    .reverse()
    .slice(0, LIST_LIMIT);
  const summaries: OutboxSummary[] = [];
  for (const id of ids) {
    const raw = await readMessageFile(dir, id);
    if (raw === undefined) continue;
    const { date, to, subject } = await parseEml(raw);
    summaries.push({ id, date, to, subject });
  }
  return summaries;
}

export async function readOutboxMessage(id: string, dir = outboxDir()): Promise<OutboxMessage | undefined> {
  if (!isOutboxId(id)) return undefined;
  const raw = await readMessageFile(dir, id);
  return raw === undefined ? undefined : { id, ...(await parseEml(raw)) };
}

/**
 * Headers, encoded words, transfer encodings and charsets are mailparser's. Only a text/plain part is shown:
 * an HTML-only message shows nothing rather than its markup or a conversion of it.
 */
export async function parseEml(raw: string): Promise<Omit<OutboxMessage, "id">> {
  const mail = await simpleParser(raw, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const to = Array.isArray(mail.to) ? mail.to.map((address) => address.text).join(", ") : mail.to?.text;
  // mailparser puts the current time for a Date header it cannot read: such a message has no date here.
  const dateHeader = mail.headerLines.find((line) => line.key === "date")?.line.replace(/^date:\s*/i, "");
  const readable = dateHeader !== undefined && !Number.isNaN(Date.parse(dateHeader));
  return {
    date: readable && mail.date ? mail.date.toISOString() : null,
    to: to ?? "",
    subject: mail.subject ?? "",
    text: (mail.text ?? "").replace(/\n$/, ""),
  };
}
