import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Checkbox, Field, FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";

/** The range of the daily cap (auto-unlock.server.ts `AUTO_UNLOCK_CAP`), for the form's field. */
const CAP = { min: 1, max: 50 };

/** The settings' answer to a first "turn on": what it spends, to confirm (ADR 90). */
export type AutoUnlockAnswer = {
  intent?: string;
  done?: string;
  errors?: Record<string, string | undefined>;
  confirmCap?: number;
};

/**
 * "Unlock the next chapter automatically when I reach it" (ADR 90): off by default; turning it on the first
 * time shows what it spends and asks to confirm, with the daily cap the reader chose.
 */
export function AutoUnlockForm({
  enabled,
  dailyCap,
  actionData,
}: {
  enabled: boolean;
  dailyCap: number;
  actionData?: AutoUnlockAnswer;
}) {
  const { t } = useTranslation();
  const mine = actionData?.intent === "autoUnlock" ? actionData : undefined;
  const error = mine?.errors ? Object.values(mine.errors)[0] : undefined;
  if (mine?.confirmCap !== undefined) {
    return (
      <Form method="post" className="flex flex-col gap-4" aria-labelledby="auto-unlock-confirm">
        <h3 id="auto-unlock-confirm" className="font-display text-lg">
          {t("settings.autoUnlock.confirmTitle")}
        </h3>
        <p>{t("settings.autoUnlock.confirmText", { count: mine.confirmCap })}</p>
        <input type="hidden" name="intent" value="autoUnlock" />
        <input type="hidden" name="enabled" value="on" />
        <input type="hidden" name="confirmed" value="1" />
        <input type="hidden" name="dailyCap" value={mine.confirmCap} />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={buttonClass("primary")}>
            {t("settings.autoUnlock.confirm")}
          </button>
          <Link to="/settings#auto-unlock" className={buttonClass("outline")}>
            {t("settings.autoUnlock.keepOff")}
          </Link>
        </div>
      </Form>
    );
  }
  return (
    <Form method="post" className="flex flex-col gap-4">
      {mine?.done ? <FormNotice>{t(mine.done)}</FormNotice> : null}
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      <p>{t("settings.autoUnlock.text")}</p>
      <input type="hidden" name="intent" value="autoUnlock" />
      <Checkbox name="enabled" label={t("settings.autoUnlock.enabled")} defaultChecked={enabled} />
      <Field
        name="dailyCap"
        type="number"
        inputMode="numeric"
        min={CAP.min}
        max={CAP.max}
        required
        defaultValue={dailyCap}
        label={t("settings.autoUnlock.dailyCap")}
        hint={t("settings.autoUnlock.dailyCapHint", { min: CAP.min, max: CAP.max })}
      />
      <div>
        <button type="submit" className={buttonClass("primary")}>
          {t("settings.autoUnlock.save")}
        </button>
      </div>
    </Form>
  );
}
