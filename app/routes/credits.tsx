import "~/i18n/full-catalogue";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { CreditsList } from "~/features/credits/credits-list";
import { creditsFigures } from "~/features/credits/queries.server";
import { useTranslation } from "~/i18n/react";
import { timelessShareablePage } from "~/lib/shareable";
import { Page } from "~/ui/page";
import { Prose } from "~/ui/prose";
import type { Route } from "./+types/credits";

/**
 * The credits (docs/product-rules.md "Credits"): the same for everyone, kept once for all visitors and retired
 * by the content revision (wall choices, acknowledgements) or within a minute (the First Humans' records move
 * the reader events, which retire the memoised names, not a kept page: ADR 81).
 */
export const headers = timelessShareablePage;

export async function loader() {
  const { names, acknowledgementsMd } = await creditsFigures();
  return {
    names,
    acknowledgements: acknowledgementsMd ? renderMarkdownCached(acknowledgementsMd) : "",
  };
}

export default function Credits({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <Page
      title={t("credits.heading")}
      eyebrow={t("credits.eyebrow")}
      intro={t("credits.intro")}
      width="max-w-4xl"
      share={{ description: t("credits.intro"), path: "/credits" }}
    >
      <div className="flex flex-col gap-10">
        <section aria-labelledby="first-humans" className="flex flex-col gap-4">
          <h2 id="first-humans" className="text-center font-display text-2xl text-primary">
            {t("credits.firstHumans")}
          </h2>
          <CreditsList names={loaderData.names} />
        </section>
        {loaderData.acknowledgements ? (
          <section
            aria-labelledby="acknowledgements"
            className="rounded-xl border border-line bg-[color:var(--surface)] p-4 sm:p-6"
          >
            <h2 id="acknowledgements" className="mb-3 text-center font-display text-2xl text-primary">
              {t("credits.acknowledgements")}
            </h2>
            <Prose html={loaderData.acknowledgements} />
          </section>
        ) : null}
      </div>
    </Page>
  );
}
