import { useTranslation } from "~/i18n/react";
import { HistoryTable } from "~/ui/history-table";
import { useFormat } from "~/ui/use-format";

export type CoinEntryView = {
  id: number;
  delta: number;
  reason: "welcome" | "purchase" | "unlock" | "refund" | "admin";
  reference: string | null;
  note: string | null;
  createdAt: string;
};

/** Why the balance moved, in the reader's words: an author's adjustment with the reason they gave. */
function Reason({ entry }: { entry: CoinEntryView }) {
  const { t } = useTranslation();
  const chapter = entry.reference?.startsWith("chapter:") ? entry.reference.slice("chapter:".length) : "";
  if (entry.reason === "unlock" && chapter)
    return <>{t("coinHistory.reasons.unlockChapter", { number: chapter })}</>;
  if (entry.reason === "admin")
    return (
      <>
        {entry.note
          ? t("coinHistory.reasons.adminNote", { note: entry.note })
          : t("coinHistory.reasons.admin")}
      </>
    );
  return <>{t(`coinHistory.reasons.${entry.reason}`)}</>;
}

/** The account's coin history, newest first: date, change and reason. */
export function CoinHistory({ entries }: { entries: CoinEntryView[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (entries.length === 0) return <p>{t("coinHistory.empty")}</p>;
  return (
    <HistoryTable
      caption={t("coinHistory.title")}
      testId={"coin-history"}
      columns={[
        { label: t("coinHistory.date") },
        { label: t("coinHistory.change"), numeric: true },
        { label: t("coinHistory.reason") },
      ]}
    >
      {entries.map((entry) => (
        <tr key={entry.id} className="border-t border-line align-top">
          <td className="py-2 pr-3 whitespace-nowrap">{format.date(entry.createdAt)}</td>
          <td className="py-2 pr-3 text-right whitespace-nowrap">
            {entry.delta > 0 ? "+" : ""}
            {format.number(entry.delta)}
          </td>
          <td className="py-2 break-words">
            <Reason entry={entry} />
          </td>
        </tr>
      ))}
    </HistoryTable>
  );
}
