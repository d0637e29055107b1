import "~/i18n/full-catalogue";
import { getSessionUser } from "~/features/auth/session.server";
import { listBetaChapters, mayReadBeta } from "~/features/beta/queries.server";
import { useTranslation } from "~/i18n/react";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/index";

/** Never stored anywhere: the list names drafts only First Human supporters may know of (ADR 83). */
export const headers = () => ({ "Cache-Control": "private, no-store" });

/**
 * The beta chapters, for a reader who holds the perk; anyone else learns what the perk is, and not whether
 * any draft is offered.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!(await mayReadBeta(user))) return { allowed: false as const, signedIn: Boolean(user) };
  return { allowed: true as const, chapters: await listBetaChapters() };
}

export default function BetaIndex({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Page title={t("beta.title")} intro={<p>{t("beta.intro")}</p>} width="max-w-3xl">
      {!loaderData.allowed ? (
        <p className="rounded-xl border border-line p-4" data-testid="beta-perk">
          {t("beta.perkOnly")}{" "}
          <Link to="/fundraiser" className="text-primary underline underline-offset-2">
            {t("beta.becomeSupporter")}
          </Link>
        </p>
      ) : loaderData.chapters.length === 0 ? (
        <p className="text-muted">{t("beta.noneYet")}</p>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="beta-list">
          {loaderData.chapters.map((chapter) => (
            <li key={chapter.number} className="rounded-xl border border-line p-4">
              <Link to={`/beta/${chapter.number}`} className="font-display text-xl text-primary underline">
                {t("beta.chapterTitle", { number: chapter.number, title: chapter.title })}
              </Link>
              <p className="text-sm text-muted">
                {t("beta.listMeta", {
                  words: format.number(chapter.wordCount),
                  at: format.date(chapter.updatedAt, { dateStyle: "medium" }),
                })}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
