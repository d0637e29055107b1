import "~/i18n/full-catalogue";
import { homeAnnouncements } from "~/features/announcements/store.server";
import { getLatestChapter } from "~/features/chapters/queries.server";
import { ChapterStatusBadge } from "~/features/chapters/status-badge";
import { GoalProgress, SupporterList } from "~/features/fundraiser/progress";
import { countSupporters, getGoals, listSupporters } from "~/features/fundraiser/queries.server";
import { productSummary } from "~/features/shop/catalog";
import { ProductCard } from "~/features/shop/product-card";
import { listProducts } from "~/features/shop/queries.server";
import { productNamesIn } from "~/features/shop/translated.server";
import { getSiteSettings } from "~/features/site/queries.server";
import {
  chapterTitles,
  originalMark,
  textField,
  translationOf,
  translationsOf,
} from "~/features/translations/reading.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { siteCard } from "~/lib/seo";
import { shareablePage } from "~/lib/shareable";
import { book } from "~/lib/structured-data";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { SentenceWith } from "~/ui/in-language";
import { Link } from "~/ui/link";
import { PageMeta, useSiteFacts } from "~/ui/page-meta";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/home";

export const headers = shareablePage;

export async function loader({ request }: Route.LoaderArgs) {
  const language = getPreferences(request).language;
  const [site, latest, products, goals, supporters, supporterCount, siteText, titles, goalTexts, news] =
    await Promise.all([
      getSiteSettings(),
      getLatestChapter(),
      listProducts().then((all) => productNamesIn(all.slice(0, 6), language)),
      getGoals(),
      listSupporters({ limit: 3 }),
      countSupporters(),
      // The author's words in the page's language where translated (ADR 86), the original's otherwise.
      translationOf("site", "site", language),
      chapterTitles(language),
      translationsOf("goal", language),
      // The author's announcements (ADR 95), in the author's language.
      homeAnnouncements(),
    ]);
  const goal = goals.campaign && goalTexts.get(goals.campaign.title);
  return {
    site: {
      ...originalMark(siteText, language),
      title: textField(siteText, "title", site.title),
      tagline: textField(siteText, "tagline", site.tagline),
      author: site.author,
      synopsis: textField(siteText, "synopsis", site.synopsis),
    },
    latest: latest && {
      ...latest,
      ...originalMark(titles.get(latest.number), language),
      title: titles.get(latest.number) ?? latest.title,
    },
    products: products.map(productSummary),
    news,
    fundraiser: goals.campaign && {
      goal: { ...goals.campaign, title: textField(goal, "title", goals.campaign.title) },
      supporters,
      supporterCount,
    },
  };
}

const tiles = [
  { to: "/chapters", key: "chapters" },
  { to: "/wiki", key: "wiki" },
  { to: "/wiki/items", key: "items" },
] as const;

function SectionHeading({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="mb-6 text-center font-display text-2xl tracking-[0.25em] text-primary sm:text-3xl">
      {children}
    </h2>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { site, latest, products, fundraiser, news } = loaderData;
  const format = useFormat();
  const facts = useSiteFacts();
  const image = siteCard(site.title);
  return (
    <>
      <DocumentTitle name={`${site.title} — ${site.tagline}`} />
      <PageMeta
        title={`${site.title} — ${site.tagline}`}
        description={site.synopsis}
        path="/"
        type="book"
        image={image}
        jsonLd={{
          "@context": "https://schema.org",
          ...book({
            name: site.title,
            author: site.author,
            url: `${facts.origin}/`,
            language: facts.language,
            description: site.synopsis,
            image: `${facts.origin}${image.url}`,
          }),
        }}
      />
      <section
        className="relative isolate overflow-hidden border-b border-line bg-[url(/media/art/chapter-7.svg)] bg-cover bg-fixed bg-center motion-reduce:bg-scroll"
        aria-labelledby="hero-title"
      >
        <div className="absolute inset-0 -z-10 bg-gradient-to-b from-black/70 via-black/50 to-black/80" />
        <div className="mx-auto flex min-h-[70vh] max-w-4xl flex-col items-center justify-center gap-6 px-6 py-20 text-center text-[#f3ede2]">
          <p className="font-display text-sm tracking-[0.4em] uppercase text-[#e9c46a]">
            {t("home.welcomeTo")}
          </p>
          <h1 id="hero-title" className="font-display text-4xl leading-tight tracking-wide sm:text-6xl">
            <span lang={site.lang}>{site.title}</span>
          </h1>
          <p className="max-w-xl text-xl italic sm:text-2xl" lang={site.lang}>
            {site.tagline}
          </p>
          <a
            href="#latest"
            className={buttonClass("primary", "bg-[#d4af37] text-[#120e0b] hover:bg-[#e9c46a]")}
          >
            {t("home.startReading")}
          </a>
        </div>
      </section>

      <section
        id="latest"
        aria-labelledby="latest-heading"
        className="mx-auto max-w-5xl scroll-mt-20 px-4 py-14 sm:px-6"
      >
        <h2 id="latest-heading" className="sr-only">
          {t("home.latestChapter")}
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Link
            to={latest ? `/chapter/${latest.number}` : "/toc"}
            className="group rounded-xl border border-line bg-[color:var(--surface)] p-6 hover:border-primary"
          >
            <p className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-display text-sm tracking-widest text-accent uppercase">
                {t("home.latestChapter")}
              </span>
              {latest ? <ChapterStatusBadge chapter={latest} /> : null}
            </p>
            <p className="mt-2 font-display text-xl group-hover:text-primary">
              {latest ? (
                <SentenceWith
                  sentence={(title) => t("toc.chapterTitle", { number: latest.number, title })}
                  value={latest.title}
                  lang={latest.lang}
                />
              ) : (
                t("home.fullStory")
              )}
            </p>
            <p className="mt-1 text-muted">{t("home.latestChapterText")}</p>
          </Link>
          <Link
            to="/toc"
            className="group rounded-xl border border-line bg-[color:var(--surface)] p-6 hover:border-primary"
          >
            <p className="font-display text-sm tracking-widest text-accent uppercase">
              {t("home.fullStory")}
            </p>
            <p className="mt-2 font-display text-xl group-hover:text-primary">{t("home.tableOfContents")}</p>
            <p className="mt-1 text-muted">{t("home.fullStoryText")}</p>
          </Link>
        </div>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/chapter/1" className={buttonClass("primary")}>
            {t("home.startChapterOne")}
          </Link>
          <Link to="/toc" className={buttonClass("outline")}>
            {t("home.tableOfContents")}
          </Link>
        </div>
      </section>

      {news.length ? (
        <section aria-labelledby="news" className="mx-auto max-w-3xl px-4 pb-14 sm:px-6">
          <SectionHeading id="news">{t("home.news")}</SectionHeading>
          <ul className="flex flex-col gap-4">
            {news.map((item) => (
              <li key={item.id}>
                <article
                  className="rounded-xl border border-line bg-[color:var(--surface)] p-6"
                  data-testid="announcement"
                >
                  <h3 lang="en" className="font-display text-xl text-primary">
                    {item.title}
                  </h3>
                  <p className="mt-1 text-sm text-muted">
                    <time dateTime={item.publishedAt}>
                      {format.date(item.publishedAt, { dateStyle: "long" })}
                    </time>
                  </p>
                  <div
                    lang="en"
                    className="prose-content mt-3 flex flex-col gap-3 break-words"
                    // Sanitised by the site's Markdown renderer (features/content/markdown.server.ts).
                    dangerouslySetInnerHTML={{ __html: item.html }}
                  />
                </article>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-label={t("home.exploreLabel")} className="mx-auto max-w-5xl px-4 pb-14 sm:px-6">
        <ul className="grid gap-4 sm:grid-cols-3">
          {tiles.map((tile) => (
            <li key={tile.to}>
              <Link
                to={tile.to}
                className="flex h-full flex-col gap-2 rounded-xl border border-line bg-[color:var(--surface)] p-6 text-center hover:border-primary"
              >
                <span className="font-display text-xl text-primary">{t(`home.tiles.${tile.key}.title`)}</span>
                <span className="text-muted">{t(`home.tiles.${tile.key}.text`)}</span>
                <span className="mt-auto font-display text-sm tracking-widest uppercase">
                  {t(`home.tiles.${tile.key}.action`)} →
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="merch" className="mx-auto max-w-6xl px-4 pb-14 sm:px-6">
        <SectionHeading id="merch">{t("home.merchandise")}</SectionHeading>
        <div className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => (
            <ProductCard key={product.id} product={product} buyNow />
          ))}
        </div>
      </section>

      {fundraiser ? (
        <section aria-labelledby="fundraiser-goals" className="mx-auto max-w-4xl px-4 pb-14 sm:px-6">
          <SectionHeading id="fundraiser-goals">{t("home.fundraiserGoals")}</SectionHeading>
          <GoalProgress goal={fundraiser.goal} label={fundraiser.goal.title} />
          <h3 className="mt-8 mb-4 font-display text-xl tracking-[0.2em]">{t("home.supporters")}</h3>
          <SupporterList supporters={fundraiser.supporters} />
          <p className="mt-6 text-center">
            <Link to="/fundraiser/supporters" className={buttonClass("outline")}>
              {t("home.viewAllSupporters", { count: fundraiser.supporterCount })}
            </Link>
          </p>
        </section>
      ) : null}

      <nav aria-label={t("home.moreLabel")} className="flex justify-center gap-8 pb-12 text-muted">
        <Link to="/gallery" className="underline-offset-4 hover:underline">
          {t("home.artGallery")}
        </Link>
        <Link to="/about" className="underline-offset-4 hover:underline">
          {t("home.aboutMe")}
        </Link>
      </nav>
    </>
  );
}
