import { useTranslation } from "~/i18n/react";
import { useFormat } from "~/ui/use-format";

export type FeedbackItem = {
  id: number;
  paragraph: number | null;
  quote: string;
  body: string;
  createdAt: Date | string;
  username: string;
};

/** The notes beta readers left on a draft, for the author: each with the paragraph it is about, quoted. */
export function FeedbackList({ items }: { items: FeedbackItem[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (!items.length) return <p className="text-muted">{t("beta.admin.none")}</p>;
  return (
    <ol className="flex flex-col gap-4" data-testid="beta-feedback">
      {items.map((item) => (
        <li key={item.id} className="rounded-xl border border-line p-4">
          <p className="text-sm text-muted">
            {t("beta.admin.by", {
              name: item.username,
              at: format.date(item.createdAt, { dateStyle: "medium", timeStyle: "short" }),
            })}
            {" · "}
            {item.paragraph === null
              ? t("beta.admin.wholeChapter")
              : t("beta.admin.onParagraph", { number: item.paragraph + 1 })}
          </p>
          {item.quote ? (
            <blockquote className="mt-2 border-l-4 border-primary pl-3 text-sm italic">
              {item.quote}
            </blockquote>
          ) : null}
          <p className="mt-2 whitespace-pre-line break-words">{item.body}</p>
        </li>
      ))}
    </ol>
  );
}
