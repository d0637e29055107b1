import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where a reply goes instead of MAIL_FROM (an inquiry to the author: the sender, ADR 26). */
  replyTo?: string;
  /** Further header fields as written (a release e-mail's List-Unsubscribe and List-Unsubscribe-Post, ADR 45). */
  headers?: Record<string, string>;
};

/**
 * SMTP when SMTP_URL is set; otherwise each message is written to DATA_DIR/outbox/ as an .eml file, so
 * password reset works on the embedded default with no mail server. Neither logs a message's links or
 * its recipient: a reset link in a log line is a live credential (ADR 16).
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send({ to, subject, text, html, replyTo, headers }: MailMessage) {
    await this.transport.sendMail({ from: this.from, to, subject, text, html, replyTo, headers });
    logger.info({ event: "mail.sent", subject, toDomain: domainOf(to) }, "e-mail sent");
  }
}

class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  constructor(
    readonly dir: string,
    private readonly from: string,
  ) {}
  async send({ to, subject, text, html, replyTo, headers }: MailMessage) {
    const info = await this.transport.sendMail({
      from: this.from,
      to,
      subject,
      text,
      html,
      replyTo,
      headers,
    });
    await fs.mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const file = path.join(this.dir, `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`);
    await fs.writeFile(file, info.message as Buffer);
    // The operator finds the message (and any link in it) in the file, never in the log.
    logger.info(
      { event: "mail.outbox", subject, toDomain: domainOf(to), file },
      "e-mail written to the outbox (no SMTP_URL configured)",
    );
  }
}

/** Which mail system a message went to, for the operator, without naming the person. */
function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

let mailer: Mailer | undefined;

export function getMailer(): Mailer {
  if (!mailer) {
    const env = getEnv();
    mailer = env.SMTP_URL
      ? new SmtpMailer(env.SMTP_URL, env.MAIL_FROM)
      : new OutboxMailer(path.join(env.dataDir, "outbox"), env.MAIL_FROM);
  }
  return mailer;
}

/** Waits between tries: a mail server that refused once (busy, restarting) often takes the next try. */
export const RETRY_DELAYS_MS = [2_000, 10_000];

/**
 * Sends, trying again after each of RETRY_DELAYS_MS on failure; never throws. Meant for work the reader
 * does not wait for (after the response, or in the background): a failure ends as an error log line.
 */
export async function sendWithRetries(message: MailMessage, delays = RETRY_DELAYS_MS): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await getMailer().send(message);
      return true;
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined) {
        logger.error(
          { event: "mail.failed", err: error, subject: message.subject, attempts: attempt + 1 },
          "e-mail failed",
        );
        return false;
      }
      logger.warn(
        { event: "mail.retry", err: error, subject: message.subject, delay },
        "e-mail failed, retrying",
      );
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
    }
  }
}

/** Sends without making the caller wait or fail: the answer to the reader must not depend on the mail server. */
export function sendInBackground(message: MailMessage): void {
  void sendWithRetries(message);
}
