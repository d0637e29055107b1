import { originalMark, textField, translationsOf } from "~/features/translations/reading.server";

/**
 * Products as a list in `language` shows them (ADR 86): each name from its translation, the original's where it
 * has none, marked `lang: "en"` then. One query for the list, none for English; prices, stock and ids stay the original's.
 */
export async function productNamesIn<P extends { id: number; name: string }>(
  products: P[],
  language: string,
): Promise<(P & { lang?: "en" })[]> {
  const texts = await translationsOf(
    "product",
    language,
    products.map((product) => String(product.id)),
  );
  return products.map((product) => {
    const translated = texts.get(String(product.id));
    return {
      ...product,
      ...originalMark(translated, language),
      name: textField(translated, "name", product.name),
    };
  });
}
