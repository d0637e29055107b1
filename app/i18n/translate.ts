import type { Language } from "./config";

/** A message catalogue in i18next's JSON v4 format: nested keys, `{{name}}` variables, `_one`/`_other` plurals. */
export type Catalogue = { [key: string]: string | Catalogue };

export type TranslateOptions = { count?: number } & Record<string, unknown>;
export type Translate = (key: string, options?: TranslateOptions) => string;

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split(".")) {
    if (typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/**
 * The translate function: the same catalogues, key lookup, CLDR plural choice and interpolation that
 * i18next performs, in a few lines, so the browser does not download a 16 KB library for it (ADR 8).
 * A missing key shows the key itself (the catalogue check keeps that from happening).
 */
export function createTranslator(language: Language, catalogue: Catalogue): Translate {
  const plurals = new Intl.PluralRules(language);
  return (key, options = {}) => {
    let text: string | undefined;
    if (typeof options.count === "number") {
      text =
        lookup(catalogue, `${key}_${plurals.select(options.count)}`) ?? lookup(catalogue, `${key}_other`);
    }
    text ??= lookup(catalogue, key) ?? key;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) =>
      name in options ? String(options[name]) : match,
    );
  };
}
