import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import type { CreditedName } from "./queries.server";

/** The First Humans, as the closing credits of a film: names centred in columns, "Anonymous" as such. */
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
      className="columns-1 gap-8 text-center font-display text-lg sm:columns-2 lg:columns-3"
      data-testid="credits-names"
    >
      {names.map((entry) => (
        <li
          key={entry.id}
          className={`break-inside-avoid py-1 break-words ${entry.name ? "" : "text-muted italic"}`}
        >
          {entry.name ?? t("supporters.anonymous")}
        </li>
      ))}
    </ul>
  );
}
