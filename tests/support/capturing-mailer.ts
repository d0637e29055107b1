import nodemailer from "nodemailer";
import type { Mailer, MailMessage } from "~/features/mail/mailer.server";

/**
 * The mail edge's test double: each message is written by nodemailer as the outbox mailer writes it (so its
 * headers are the real ones), and kept. `failFor` makes sending to those addresses throw.
 */
export function capturingMailer(failFor: Set<string> = new Set()) {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const sent: { message: MailMessage; raw: string }[] = [];
  const mailer: Mailer = {
    async send(message) {
      if (failFor.has(message.to)) throw new Error("mail server refused");
      const info = await transport.sendMail({ from: "Site <no-reply@localhost>", ...message });
      // Header fields unfolded (a long one is folded over lines, RFC 5322).
      sent.push({ message, raw: (info.message as Buffer).toString("utf8").replace(/\n[ \t]+/g, " ") });
    },
  };
  return { mailer, sent, to: (address: string) => sent.filter((m) => m.message.to === address) };
}
