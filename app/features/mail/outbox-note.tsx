import { Trans } from "~/i18n/react";
import { Link } from "~/ui/link";

/**
 * Shown after "check your e-mail" when the site runs locally with no mail server (ADR 20): the message is in
 * the local outbox, not in anyone's inbox. The loader decides, with localOutboxAvailable.
 */
export function LocalOutboxNote() {
  return (
    <p role="note" className="mt-6 rounded-lg border border-line p-4 text-sm">
      <Trans
        i18nKey="auth.localOutbox"
        components={{ outbox: <Link to="/outbox" className="text-primary underline underline-offset-2" /> }}
      />
    </p>
  );
}
