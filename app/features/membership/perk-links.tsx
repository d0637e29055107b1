import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import type { PerkLink } from "./perks";

const linkClass = "text-primary underline underline-offset-2";

/** Each perk by name, linked to where it lives, with a word on what it is. */
export function PerkLinks({ links, heading }: { links: PerkLink[]; heading: string }) {
  const { t } = useTranslation();
  if (links.length === 0) return null;
  return (
    <div className="flex flex-col gap-1" data-testid="perk-links">
      <p className="text-muted text-sm">{heading}</p>
      <ul className="flex flex-col gap-1 text-sm">
        {links.map(({ perk, href, external }) => (
          <li key={perk}>
            {external ? (
              <a href={href} rel="noopener noreferrer" className={linkClass}>
                {t(`perks.items.${perk}.name`)}
              </a>
            ) : (
              <Link to={href} className={linkClass}>
                {t(`perks.items.${perk}.name`)}
              </Link>
            )}
            {`: ${t(`perks.items.${perk}.what`)}`}
          </li>
        ))}
      </ul>
    </div>
  );
}
