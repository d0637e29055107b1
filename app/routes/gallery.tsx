import "~/i18n/full-catalogue";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { listGalleryItems } from "~/features/gallery/queries.server";
import { bodyText, originalMark, textField, translationsOf } from "~/features/translations/reading.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { timelessShareablePage } from "~/lib/shareable";
import { Page } from "~/ui/page";
import { Prose } from "~/ui/prose";
import type { Route } from "./+types/gallery";

export const headers = timelessShareablePage;

/** The grid's column at most: one, two or three across. */
const SIZES = "(min-width: 64rem) 22rem, (min-width: 40rem) 50vw, 100vw";

export async function loader({ request }: Route.LoaderArgs) {
  const items = await listGalleryItems();
  // Titles and captions in the page's language where translated (ADR 86), in one query; an item without
  // a translation there says it is in English.
  const { language } = getPreferences(request);
  const texts = await translationsOf(
    "gallery",
    language,
    items.map((item) => item.slug),
  );
  return {
    items: items.map((item) => {
      const translated = texts.get(item.slug);
      return {
        slug: item.slug,
        ...originalMark(translated, language),
        title: textField(translated, "title", item.title),
        imageUrl: item.imageUrl,
        picture: item.picture,
        html: renderMarkdownCached(bodyText(translated, item.descriptionMd)),
      };
    }),
  };
}

export default function Gallery({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <Page
      title={t("gallery.heading")}
      intro={t("gallery.intro")}
      width="max-w-6xl"
      share={{ description: t("gallery.intro"), path: "/gallery" }}
    >
      {loaderData.items.length === 0 ? (
        <p className="text-center italic">{t("gallery.empty")}</p>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {loaderData.items.map((item) => (
            <li key={item.slug}>
              <figure
                lang={item.lang}
                className="overflow-hidden rounded-xl border border-line bg-[color:var(--surface)]"
              >
                <picture>
                  {item.picture?.sources.map((source) => (
                    <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={SIZES} />
                  ))}
                  <img
                    src={item.picture?.src ?? item.imageUrl}
                    srcSet={item.picture?.fallbackSrcSet}
                    sizes={item.picture && SIZES}
                    alt={item.title}
                    width={item.picture?.width ?? 1200}
                    height={item.picture?.height ?? 800}
                    loading="lazy"
                    className="aspect-[3/2] w-full object-cover"
                  />
                </picture>
                <figcaption className="flex flex-col gap-1 p-4">
                  <span className="font-display text-lg text-primary">{item.title}</span>
                  <Prose html={item.html} className="text-muted" />
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
