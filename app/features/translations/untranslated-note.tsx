import { type Language, languageNames } from "~/i18n/config";
import { localizedPath } from "~/i18n/urls";
import { Link } from "~/ui/link";

/** The note's words, in the page's language, made on the server: the chapter page's script carries none. */
export type Untranslated = { versions: Language[]; note: string; label: string };

/**
 * Said above content shown in English on a page in another language (ADR 86): it is not translated yet, and
 * the versions there are, each at its language's URL, named in its own language.
 */
export function UntranslatedNote({ path, versions, note, label }: Untranslated & { path: string }) {
  return (
    <p role="note" className="mb-6 rounded-md border border-border px-4 py-3 text-sm">
      {note} <span>{label}</span>{" "}
      {versions.map((language, index) => (
        <span key={language}>
          {index > 0 ? ", " : null}
          <Link to={localizedPath(language, path)} lang={language} hrefLang={language} className="underline">
            {languageNames[language]}
          </Link>
        </span>
      ))}
    </p>
  );
}
