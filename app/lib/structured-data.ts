/**
 * schema.org objects for a page's JSON-LD (ADR 46): the book and its chapters, a product's offer,
 * breadcrumbs. Plain objects from what the page already shows; `PageMeta` writes them, escaped.
 */

type Thing = Record<string, unknown>;
type Crumb = { name: string; url: string };

/** The trail to a page: each step's name and absolute address. */
export function breadcrumbs(crumbs: Crumb[]): Thing {
  return {
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: crumb.url,
    })),
  };
}

/** The serial as a book; `parts` are the released chapters the page lists. */
export function book(facts: {
  name: string;
  author: string;
  url: string;
  language: string;
  description?: string;
  image?: string;
  parts?: { name: string; position: number; url: string }[];
}): Thing {
  return {
    "@type": "Book",
    name: facts.name,
    author: { "@type": "Person", name: facts.author },
    url: facts.url,
    inLanguage: facts.language,
    ...(facts.description ? { description: facts.description } : {}),
    ...(facts.image ? { image: facts.image } : {}),
    ...(facts.parts?.length ? { hasPart: facts.parts.map((part) => ({ "@type": "Chapter", ...part })) } : {}),
  };
}

/**
 * A chapter, part of the book. A chapter a visitor cannot read (paid or not yet released) is marked so, with
 * the part of the page that holds the text (Google's guidance on paywalled content): the text itself is
 * never in the page, so nothing is hidden from readers that a crawler sees.
 */
export function chapter(facts: {
  name: string;
  position: number;
  url: string;
  book: { name: string; url: string };
  datePublished?: string;
  image?: string;
  free: boolean;
}): Thing {
  return {
    "@type": "Chapter",
    name: facts.name,
    position: facts.position,
    url: facts.url,
    isPartOf: { "@type": "Book", name: facts.book.name, url: facts.book.url },
    ...(facts.datePublished ? { datePublished: facts.datePublished } : {}),
    ...(facts.image ? { image: facts.image } : {}),
    isAccessibleForFree: facts.free,
    ...(facts.free
      ? {}
      : {
          hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".reader-column" },
        }),
  };
}

const availability = {
  in: "https://schema.org/InStock",
  out: "https://schema.org/OutOfStock",
  preorder: "https://schema.org/PreOrder",
} as const;

/** A product and its offer: price in the currency's units, availability from its stock. */
export function product(facts: {
  name: string;
  description: string;
  url: string;
  image?: string;
  priceCents: number;
  currency: string;
  stock: "in" | "out" | "preorder";
}): Thing {
  return {
    "@type": "Product",
    name: facts.name,
    description: facts.description,
    ...(facts.image ? { image: facts.image } : {}),
    offers: {
      "@type": "Offer",
      url: facts.url,
      price: (facts.priceCents / 100).toFixed(2),
      priceCurrency: facts.currency.toUpperCase(),
      availability: availability[facts.stock],
    },
  };
}

/** One JSON-LD document of several objects. */
export const graph = (things: Thing[]) => ({ "@context": "https://schema.org", "@graph": things });
