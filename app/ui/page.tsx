import type { ReactNode } from "react";
import { type SharedPage, siteCard } from "~/lib/seo";
import { DocumentTitle } from "./document-title";
import { ClientMeta, PageMeta, useSiteFacts } from "./page-meta";

/** A public page's description, address and picture for search engines and previews (the site's card by default). */
export type PageShare = Omit<SharedPage, "title" | "image"> & {
  image?: SharedPage["image"];
  jsonLd?: unknown;
};

function Share({ name, share }: { name: string; share: PageShare }) {
  if (!import.meta.env.SSR) return <ClientMeta path={share.path} jsonLd={Boolean(share.jsonLd)} />;
  return <ServerShare name={name} share={share} />;
}

function ServerShare({ name, share }: { name: string; share: PageShare }) {
  const site = useSiteFacts();
  return <PageMeta title={name} image={siteCard(site.name)} {...share} />;
}

/** The common page frame: a centred column with a display heading, which also names the page (its `<title>`). */
export function Page({
  title,
  name = title,
  eyebrow,
  intro,
  children,
  width = "max-w-5xl",
  share,
}: {
  title: string;
  /** The page's name in its `<title>`, where the heading is not one (a slogan). */
  name?: string;
  eyebrow?: ReactNode;
  intro?: ReactNode;
  children?: ReactNode;
  width?: string;
  /** A public page's description and canonical path (lib/seo.ts); private pages have none. */
  share?: PageShare;
}) {
  return (
    <div className={`mx-auto ${width} px-4 py-10 sm:px-6 sm:py-14`}>
      <DocumentTitle name={name} />
      {share ? <Share name={name} share={share} /> : null}
      <header className="mb-8 text-center">
        {eyebrow ? (
          <p className="mb-2 font-display text-sm tracking-[0.3em] text-accent uppercase">{eyebrow}</p>
        ) : null}
        <h1 className="font-display text-3xl tracking-wide text-primary sm:text-4xl">{title}</h1>
        {intro ? <div className="mx-auto mt-4 max-w-2xl text-lg text-muted">{intro}</div> : null}
      </header>
      {children}
    </div>
  );
}

/** A titled card within a page: a section labelled by its heading (account, checkout and order pages). */
export function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl border border-line bg-[color:var(--surface)] p-4 sm:p-6"
    >
      <h2 id={id} className="mb-3 scroll-mt-24 font-display text-xl text-primary">
        {title}
      </h2>
      {children}
    </section>
  );
}
