import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { FormAlert, FormNotice } from "~/ui/form";
import { Link } from "~/ui/link";
import type { LinkOutcome } from "./outcomes";
import type { DiscordSectionData } from "./queries.server";

/** Outcomes that are good news; the rest are shown as an alert. */
const good: LinkOutcome[] = ["linked", "unlinked"];

/**
 * /settings#discord (ADR 84): the linked Discord account and the role its tier gives on the server, a link
 * or unlink button, and the community invite. Without the perk configured, only the invite.
 */
export function DiscordSection({ data, outcome }: { data: DiscordSectionData; outcome?: LinkOutcome }) {
  const { t } = useTranslation();
  const { perk, invite } = data;
  const message = outcome ? t(`discord.outcomes.${outcome}`) : null;
  return (
    <div className="flex flex-col gap-4">
      {message && outcome && good.includes(outcome) ? <FormNotice>{message}</FormNotice> : null}
      {message && outcome && !good.includes(outcome) ? <FormAlert>{message}</FormAlert> : null}
      {perk ? (
        <>
          <p className="text-muted">{t("discord.intro")}</p>
          {perk.link ? (
            <p>
              {t("discord.linkedAs", { username: perk.link.username })}{" "}
              {!perk.link.inGuild
                ? t("discord.notInGuild")
                : !perk.tierHasRole
                  ? t("discord.noRole")
                  : perk.link.pending
                    ? t("discord.pending")
                    : t("discord.roleGiven")}
            </p>
          ) : (
            <p>{t("discord.notLinked")}</p>
          )}
          {!perk.tierHasRole ? (
            <p>
              <Link to="/account/supporter" className="text-primary underline underline-offset-2">
                {t("discord.tiers")}
              </Link>
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Form method="post" action="/settings/discord" reloadDocument>
              <input type="hidden" name="intent" value="link" />
              <button type="submit" className={buttonClass(perk.link ? "outline" : "primary")}>
                {perk.link ? t("discord.relink") : t("discord.link")}
              </button>
            </Form>
            {perk.link ? (
              <Form method="post" action="/settings/discord" reloadDocument>
                <input type="hidden" name="intent" value="unlink" />
                <button type="submit" className={buttonClass("ghost")}>
                  {t("discord.unlink")}
                </button>
              </Form>
            ) : null}
          </div>
        </>
      ) : null}
      {invite ? (
        <p>
          <a
            href={invite.url}
            rel="noopener noreferrer"
            className="text-primary underline underline-offset-2"
          >
            {invite.label}
          </a>
        </p>
      ) : null}
    </div>
  );
}
