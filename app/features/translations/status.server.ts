import type { Database } from "#db/client.server";
import type { TranslationLanguage } from "#db/schema";
import * as t from "#db/schema";
import { type AnyKind, digestOf, type OriginalText, originalTexts, refOf } from "./originals.server";

/** `current`: made from the original as it is; `stale`: the original changed since (ADR 86). */
export type TranslationState = "current" | "stale";

/** A translation's state: whether the digest it recorded is its original's now. */
export const stateOf = (recorded: string, original: string): TranslationState =>
  recorded === original ? "current" : "stale";

export type TranslationStatus = {
  kind: AnyKind;
  key: string;
  language: TranslationLanguage;
  state: TranslationState;
};

/**
 * Every translation and whether its original changed since it was made: the digest it recorded against the
 * original's now. Ordered by kind, key and language. A translation whose original is gone is not listed.
 */
export async function translationStatus(
  database: Pick<Database, "select">,
  /** The originals when the caller has read them already (`originalTexts`). */
  known?: Map<string, OriginalText>,
): Promise<TranslationStatus[]> {
  const originals = known ?? (await originalTexts(database));
  const digests = new Map([...originals].map(([ref, original]) => [ref, digestOf(original)]));
  const chapterNumbers = new Map(
    (await database.select({ id: t.chapters.id, number: t.chapters.number }).from(t.chapters)).map((row) => [
      row.id,
      String(row.number),
    ]),
  );
  const made = [
    ...(
      await database
        .select({
          chapterId: t.chapterTranslations.chapterId,
          language: t.chapterTranslations.language,
          sourceDigest: t.chapterTranslations.sourceDigest,
        })
        .from(t.chapterTranslations)
    ).map((row) => ({
      kind: "chapter" as AnyKind,
      key: chapterNumbers.get(row.chapterId) ?? "",
      language: row.language,
      sourceDigest: row.sourceDigest,
    })),
    ...(
      await database
        .select({
          kind: t.translations.kind,
          key: t.translations.key,
          language: t.translations.language,
          sourceDigest: t.translations.sourceDigest,
        })
        .from(t.translations)
    ).map((row) => ({ ...row, kind: row.kind as AnyKind })),
  ];
  return made
    .flatMap(({ kind, key, language, sourceDigest }) => {
      const digest = digests.get(refOf(kind, key));
      if (digest === undefined) return [];
      return [{ kind, key, language, state: stateOf(sourceDigest, digest) }];
    })
    .sort((a, b) =>
      `${a.kind}\n${a.key.padStart(8, "0")}\n${a.language}`.localeCompare(
        `${b.kind}\n${b.key.padStart(8, "0")}\n${b.language}`,
      ),
    );
}
