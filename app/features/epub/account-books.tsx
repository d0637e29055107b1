import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";

/** /account's EPUB downloads (ADR 89): the whole serial and each volume, each a plain link to the file. */
export function AccountBooks({ volumes }: { volumes: { number: number; title: string }[] }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted">{t("account.epub.text")}</p>
      <ul className="flex flex-wrap gap-3">
        <li>
          <a href="/epub" download className={buttonClass("primary")} data-testid="epub-serial">
            {t("account.epub.whole")}
          </a>
        </li>
        {volumes.map((volume) => (
          <li key={volume.number}>
            <a
              href={`/epub/volume/${volume.number}`}
              download
              className={buttonClass("outline")}
              title={volume.title}
              data-testid="epub-volume"
            >
              {t("account.epub.volume", { number: volume.number })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
