import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

export type MailMessage = { to: string; subject: string; text: string; html: string; link?: string };

/**
 * SMTP when SMTP_URL is set; otherwise each message is written to DATA_DIR/outbox/ as an .eml file and its
 * link logged, so password reset works on the embedded default with no mail server.
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
  async send({ to, subject, text, html }: MailMessage) {
    await this.transport.sendMail({ from: this.from, to, subject, text, html });
    logger.info({ subject }, "e-mail sent");
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
  async send({ to, subject, text, html, link }: MailMessage) {
    const info = await this.transport.sendMail({ from: this.from, to, subject, text, html });
    await fs.mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const file = path.join(this.dir, `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`);
    await fs.writeFile(file, info.message as Buffer);
    // With no mail server the operator has only the log to hand the link on; SMTP mode never logs it.
    logger.info({ subject, file, link }, "e-mail written to the outbox (no SMTP_URL configured)");
  }
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

/** Sends without making the caller wait or fail: the answer to the reader must not depend on the mail server. */
export function sendInBackground(message: MailMessage): void {
  getMailer()
    .send(message)
    .catch((error: unknown) => logger.error({ err: error, subject: message.subject }, "e-mail failed"));
}
