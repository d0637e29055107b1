import "~/i18n/full-catalogue";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { shownIn, textField } from "~/features/translations/reading.server";
import { UntranslatedNote } from "~/features/translations/untranslated-note";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { timelessShareablePage } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { Prose } from "~/ui/prose";
import type { Route } from "./+types/about";

export const headers = timelessShareablePage;

export async function loader({ request }: Route.LoaderArgs) {
  const { aboutMd, ...site } = await getSiteSettings();
  // The author's words in the reader's language where translated (ADR 86), else the original with a note.
  const { translated, untranslated } = await shownIn("site", "site", getPreferences(request).language);
  return {
    site: {
      ...site,
      synopsis: textField(translated, "synopsis", site.synopsis),
      location: textField(translated, "location", site.location),
      role: textField(translated, "role", site.role),
      socialLabel: textField(translated, "socialLabel", site.socialLabel),
    },
    aboutHtml: renderMarkdownCached(translated?.body || aboutMd),
    ...(untranslated ? { untranslated } : {}),
  };
}

export default function About({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { site, aboutHtml } = loaderData;
  const facts = [
    [t("about.name"), site.author],
    [t("about.location"), site.location],
    [t("about.role"), site.role],
    [t("about.started"), String(site.startedYear)],
  ] as const;
  return (
    <Page title={t("about.heading")} width="max-w-3xl" share={{ description: site.synopsis, path: "/about" }}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-xl border border-line bg-[color:var(--surface)] p-6">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-display text-sm tracking-widest text-muted uppercase">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="background" className="mt-10">
        <h2 id="background" className="mb-4 font-display text-2xl text-primary">
          {t("about.background")}
        </h2>
        {loaderData.untranslated ? <UntranslatedNote path="/about" {...loaderData.untranslated} /> : null}
        <div lang={loaderData.untranslated ? "en" : undefined}>
          <Prose html={aboutHtml} />
        </div>
      </section>
      <section aria-labelledby="contact" className="mt-10">
        <h2 id="contact" className="mb-4 font-display text-2xl text-primary">
          {t("about.contact")}
        </h2>
        <ul className="flex flex-col gap-2">
          <li>
            {t("about.email")}:{" "}
            <a className="text-primary underline underline-offset-2" href={`mailto:${site.email}`}>
              {site.email}
            </a>
          </li>
          <li>
            <a
              className="text-primary underline underline-offset-2"
              href={site.socialUrl}
              rel="noopener noreferrer"
            >
              {site.socialLabel}
            </a>
          </li>
          <li>
            <a
              className="text-primary underline underline-offset-2"
              href={site.communityUrl}
              rel="noopener noreferrer"
            >
              {site.communityLabel}
            </a>
          </li>
        </ul>
      </section>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClass("outline")}>
          {t("about.backHome")}
        </Link>
        <Link to="/chapter/1" className={buttonClass("primary")}>
          {t("about.readChapterOne")}
        </Link>
      </div>
    </Page>
  );
}
