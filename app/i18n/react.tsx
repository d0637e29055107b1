import {
  cloneElement,
  createContext,
  Fragment,
  type ReactElement,
  type ReactNode,
  useContext,
  useMemo,
} from "react";
import { defaultLanguage, type Language } from "./config";
import { type Catalogue, createTranslator, type Translate, type TranslateOptions } from "./translate";

type I18n = { language: Language; t: Translate };

const I18nContext = createContext<I18n>({ language: defaultLanguage, t: (key) => key });

/** Provides the interface language and its catalogue to every component (server and browser alike). */
export function I18nProvider({
  language,
  catalogue,
  children,
}: {
  language: Language;
  catalogue: Catalogue;
  children: ReactNode;
}) {
  const value = useMemo(
    () => ({ language, t: createTranslator(language, catalogue) }),
    [language, catalogue],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** `const { t, i18n } = useTranslation()`: the shape react-i18next components use. */
export function useTranslation() {
  const { language, t } = useContext(I18nContext);
  return { t, i18n: { language } };
}

/**
 * A translated sentence with markup inside: `<terms>terms and conditions</terms>` in the catalogue becomes
 * the `terms` element with the translated words as its children. Whole sentences stay in the catalogue.
 */
export function Trans({
  i18nKey,
  values,
  components,
}: {
  i18nKey: string;
  values?: TranslateOptions;
  components: Record<string, ReactElement<{ children?: ReactNode }>>;
}) {
  const { t } = useTranslation();
  const text = t(i18nKey, values);
  const parts: ReactNode[] = [];
  const tag = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    parts.push(text.slice(last, match.index));
    const element = components[match[1] ?? ""];
    parts.push(element ? cloneElement(element, { key: match.index }, match[2]) : match[2]);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <Fragment>{parts}</Fragment>;
}
