import { Form, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert, FormNotice, useFormValidation } from "~/ui/form";
import { HistoryTable } from "~/ui/history-table";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { SupporterPanelData } from "./account.server";
import { WallChoiceFields } from "./wall-choice-fields";

export type SupporterUpdateResult = { saved?: boolean; errors?: Record<string, string>; formError?: string };

/**
 * How the reader appears on the supporters wall, and a form to change it: POST /account/supporter, whose page
 * shows the answer (with or without JavaScript; React Router's Form, not a fetcher, whose code would ride in
 * the framework chunk every page loads). Readers who have not supported yet are pointed to the fundraiser.
 */
export function SupporterPanel({
  data,
  result,
}: {
  data: SupporterPanelData;
  result?: SupporterUpdateResult;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/account/supporter";
  const answer = result;
  const { errors, onSubmit, onFocus } = useFormValidation(
    () => import("./wall-choice").then((module) => module.wallChoiceSchema),
    answer?.errors,
  );
  if (!data.entry)
    return (
      <p>
        {t("supporters.account.notYet")}{" "}
        <Link to="/fundraiser" className="text-primary underline underline-offset-2">
          {t("supporters.account.toFundraiser")}
        </Link>
      </p>
    );
  return (
    <Form
      method="post"
      action="/account/supporter"
      noValidate
      onSubmit={onSubmit}
      onFocus={onFocus}
      className="flex flex-col gap-4"
    >
      <p className="text-muted">
        {t("supporters.account.intro", {
          username: data.username,
          tier: t(`supporters.tiers.${data.entry.tier}`),
        })}
      </p>
      {answer?.saved && !busy ? <FormNotice>{t("supporters.account.saved")}</FormNotice> : null}
      {answer?.formError ? <FormAlert>{t(answer.formError)}</FormAlert> : null}
      <WallChoiceFields idPrefix="account-wall" defaults={data.entry} errors={errors} />
      <button type="submit" className={buttonClass("outline", "self-start")} disabled={busy}>
        {t("supporters.account.save")}
      </button>
    </Form>
  );
}

/** The reader's one-off gifts: date, amount and where each stands. */
export function GiftHistory({ gifts }: { gifts: SupporterPanelData["gifts"] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (gifts.length === 0)
    return (
      <p>
        {t("gifts.history.empty")}{" "}
        <Link to="/fundraiser#gift" className="text-primary underline underline-offset-2">
          {t("gifts.history.give")}
        </Link>
      </p>
    );
  return (
    <HistoryTable
      caption={t("gifts.history.title")}
      testId={"gift-history"}
      columns={[
        { label: t("gifts.history.date") },
        { label: t("gifts.history.amount"), numeric: true },
        { label: t("gifts.history.status") },
      ]}
    >
      {gifts.map((gift) => (
        <tr key={gift.id} className="border-t border-line">
          <td className="py-2 pr-3 whitespace-nowrap">{format.date(gift.date)}</td>
          <td className="py-2 pr-3 text-right whitespace-nowrap">
            {format.money(gift.amountCents, gift.currency)}
            {gift.refundedCents > 0 ? (
              <span className="block text-muted">
                {t("gifts.history.refunded", { amount: format.money(gift.refundedCents, gift.currency) })}
              </span>
            ) : null}
          </td>
          <td className="py-2">{t(`gifts.history.statuses.${gift.status}`)}</td>
        </tr>
      ))}
    </HistoryTable>
  );
}
