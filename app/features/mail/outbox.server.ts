import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
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
    const { date, to, subject } = parseEml(raw);
    summaries.push({ id, date, to, subject });
  }
  return summaries;
}

export async function readOutboxMessage(id: string, dir = outboxDir()): Promise<OutboxMessage | undefined> {
  if (!isOutboxId(id)) return undefined;
  const raw = await readMessageFile(dir, id);
  return raw === undefined ? undefined : { id, ...parseEml(raw) };
}

// --- A small reader for the messages nodemailer writes: headers, RFC 2047 words, one level of multipart. ---

type Part = { headers: Map<string, string>; body: string };

function splitPart(raw: string): Part {
  const text = raw.replace(/\r\n/g, "\n");
  const end = text.indexOf("\n\n");
  const head = end < 0 ? text : text.slice(0, end);
  const body = end < 0 ? "" : text.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded lines (starting with white space) continue the header above them.
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function bytesToText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset || "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

export function decodeQuotedPrintable(text: string, charset = "utf-8"): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      for (const byte of new TextEncoder().encode(joined[i])) bytes.push(byte);
    }
  }
  return bytesToText(Uint8Array.from(bytes), charset);
}

/** `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words; the white space between two of them is not text. */
export function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, charset: string, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? bytesToText(Buffer.from(data, "base64"), charset)
        : decodeQuotedPrintable(data.replace(/_/g, " "), charset),
    );
}

function parameter(header: string, name: string): string {
  const match = new RegExp(`;\\s*${name}="?([^";]*)"?`, "i").exec(header);
  return match?.[1] ?? "";
}

function decodeBody(part: Part): string {
  const type = part.headers.get("content-type") ?? "text/plain";
  const charset = parameter(type, "charset") || "utf-8";
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(part.body, charset);
  if (encoding === "base64")
    return bytesToText(Buffer.from(part.body.replace(/\s+/g, ""), "base64"), charset);
  return part.body;
}

/** The text part of a message (an HTML-only message shows nothing rather than unsafe markup). */
function textOf(message: Part): string {
  const type = (message.headers.get("content-type") ?? "text/plain").toLowerCase();
  if (type.startsWith("text/plain")) return decodeBody(message);
  const boundary = parameter(message.headers.get("content-type") ?? "", "boundary");
  if (!type.startsWith("multipart/") || !boundary) return "";
  for (const chunk of message.body.replace(/\r\n/g, "\n").split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith("--")) break;
    const part = splitPart(chunk.replace(/^\n/, ""));
    if ((part.headers.get("content-type") ?? "text/plain").toLowerCase().startsWith("text/plain"))
      return decodeBody(part).replace(/\n$/, "");
  }
  return "";
}

export function parseEml(raw: string): Omit<OutboxMessage, "id"> {
  const message = splitPart(raw);
  const date = Date.parse(message.headers.get("date") ?? "");
  return {
    date: Number.isNaN(date) ? null : new Date(date).toISOString(),
    to: decodeHeader(message.headers.get("to") ?? ""),
    subject: decodeHeader(message.headers.get("subject") ?? ""),
    text: textOf(message),
  };
}
