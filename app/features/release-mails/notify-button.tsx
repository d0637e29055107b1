import "~/i18n/full-catalogue";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";

/**
 * "Notify me" (ADR 45) on the table of contents and a locked chapter: the release e-mail opt-in of /settings.
 * A plain form to /notify that works without JavaScript (it goes back to `returnTo`), sent by a fetcher once
 * the page runs. A visitor gets a link to sign in that comes back here. `on` is the reader's choice when the
 * page carries it; a page shared by the readers waiting for a chapter does not (ADR 50), so the button asks
 * `/notify/state` once it runs, offering to turn the e-mails on until it knows.
 */
export function NotifyButton({
  on,
  signedIn = on !== undefined,
  returnTo,
}: {
  on: boolean | undefined;
  signedIn?: boolean;
  returnTo: string;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const [asked, setAsked] = useState<boolean>();
  const [chosen, setChosen] = useState<boolean>();
  useEffect(() => {
    if (on !== undefined || !signedIn) return;
    let live = true;
    fetch("/notify/state")
      .then((response) => (response.ok ? response.json() : undefined))
      .then((body: { on?: unknown } | undefined) => {
        if (live && typeof body?.on === "boolean") setAsked(body.on);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [on, signedIn]);
  if (!signedIn)
    return (
      <Link to={`/login?redirectTo=${encodeURIComponent(returnTo)}`} className={buttonClass("outline")}>
        {t("notify.signIn")}
      </Link>
    );
  // While the choice is on its way, show what it will be.
  const pending = fetcher.formData?.get("notify");
  const shownOn =
    pending === undefined || pending === null ? (chosen ?? on ?? asked ?? false) : pending === "on";
  return (
    <fetcher.Form
      method="post"
      action="/notify"
      preventScrollReset
      className="flex flex-wrap items-center gap-3"
      onSubmit={() => setChosen(!shownOn)}
    >
      <input type="hidden" name="redirectTo" value={returnTo} />
      <input type="hidden" name="notify" value={shownOn ? "off" : "on"} />
      <button type="submit" className={buttonClass("outline")} disabled={fetcher.state !== "idle"}>
        {shownOn ? t("notify.stop") : t("notify.button")}
      </button>
      {/* After the button: empty, it leaves no gap before it. */}
      <p role="status" className="text-sm text-muted">
        {shownOn ? t("notify.on") : null}
      </p>
    </fetcher.Form>
  );
}
