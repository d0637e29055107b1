import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import type { CreditedName } from "./queries.server";

/** The First Humans, as a film's closing credits: names centred, line after line, "Anonymous" as such. */
export function CreditsList({ names }: { names: CreditedName[] }) {
  const { t } = useTranslation();
  if (names.length === 0)
    return (
      <p className="text-center text-muted italic">
        {t("credits.none")}{" "}
        <Link to="/fundraiser" className="text-primary underline underline-offset-2">
          {t("credits.join")}
        </Link>
      </p>
    );
  return (
    <ul
      className="mx-auto flex max-w-3xl flex-wrap justify-center gap-x-10 gap-y-3 text-center font-display text-lg"
      data-testid="credits-names"
    >
      {names.map((entry) => (
        <li key={entry.id} className={`max-w-full break-words ${entry.name ? "" : "text-muted italic"}`}>
          {entry.name ?? t("supporters.anonymous")}
        </li>
      ))}
    </ul>
  );
}
