import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useState } from "react";
import { useSubmit } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";

/**
 * A passkey's button (ADR 65): asks the server for WebAuthn options, lets the browser make or use the
 * passkey, then posts its answer as the form field `response` with `fields`, through the page's action.
 * Passkeys need scripts: until the page is interactive the button is disabled.
 */
export function PasskeyButton({
  mode,
  optionsUrl,
  label,
  fields,
  className,
}: {
  mode: "sign-in" | "enrol";
  optionsUrl: string;
  label: string;
  fields: Record<string, string>;
  /** More classes for the button (its width where it stands). */
  className?: string;
}) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const run = async () => {
    setFailed(false);
    setBusy(true);
    try {
      const answer = await fetch(optionsUrl, { method: "POST", headers: { Accept: "application/json" } });
      if (!answer.ok) throw new Error(`passkey options: ${answer.status}`);
      const optionsJSON = await answer.json();
      const response =
        mode === "sign-in"
          ? await startAuthentication({ optionsJSON })
          : await startRegistration({ optionsJSON });
      await submit({ ...fields, response: JSON.stringify(response) }, { method: "post" });
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        className={buttonClass("primary", className)}
        onClick={run}
        disabled={busy || !ready}
      >
        {label}
      </button>
      {failed ? (
        <p role="alert" className="text-[#b42318] dark:text-[#ffb4a9]">
          {t("twoFactor.passkeyFailed")}
        </p>
      ) : null}
    </div>
  );
}
