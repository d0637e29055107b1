import { and, eq } from "drizzle-orm";
import { db } from "#db/client.server";
import type { TranslationKind, TranslationLanguage } from "#db/schema";
import * as t from "#db/schema";
import { type Actor, recordAudit } from "~/features/audit/log.server";
import { digestOf, type OriginalText, originalTexts, refOf } from "~/features/translations/originals.server";
import { translationStatus } from "~/features/translations/status.server";
import type { TranslationMark } from "./translation-form";

/**
 * The translations of everything but chapters (ADR 98): the site's texts, legal pages, volumes, wiki pages,
 * gallery items, products, tiers, coin packs and goals, edited in the admin beside their original as chapters
 * are (ADR 93), stored as an import stores them (`translations`, ADR 86).
 */

/** An original and how far each language has it: not yet, from the original as it is, or as it was. */
export type TranslatableRow = {
  kind: TranslationKind;
  key: string;
  label: string;
  marks: Record<TranslationLanguage, TranslationMark>;
};

/** What the list calls an original: its title or name, else its key (a coin pack). */
const labelOf = (original: OriginalText) => {
  const { title, name } = original.fields;
  return typeof title === "string" && title ? title : typeof name === "string" && name ? name : original.key;
};

/** Every original but the chapters, in the order of the kinds, with its translations' marks. */
export async function listTranslatables(): Promise<TranslatableRow[]> {
  const originals = await originalTexts(db(), { chapters: false });
  const states = await translationStatus(db(), originals);
  const made = new Map(
    states.map((state) => [`${refOf(state.kind, state.key)}\n${state.language}`, state.state]),
  );
  return [...originals.values()]
    .filter((original) => original.kind !== "chapter")
    .map((original) => ({
      kind: original.kind as TranslationKind,
      key: original.key,
      label: labelOf(original),
      marks: Object.fromEntries(
        t.translationLanguages.map((language) => [
          language,
          made.get(`${refOf(original.kind, original.key)}\n${language}`) ?? "missing",
        ]),
      ) as Record<TranslationLanguage, TranslationMark>,
    }));
}

/** A stored translation as the editor opens it: `savedAt` names the version (a save from another is refused). */
type Stored = { fields: Record<string, unknown>; body: string; savedAt: string };

const storedOf = (row: typeof t.translations.$inferSelect): Stored => ({
  fields: row.fields,
  body: row.bodyMd,
  savedAt: row.updatedAt.toISOString(),
});

const rowKey = (kind: TranslationKind, key: string, language: TranslationLanguage) =>
  and(eq(t.translations.kind, kind), eq(t.translations.key, key), eq(t.translations.language, language));

/** The original (read only beside the translation) and its translation in `language`, if made; else undefined. */
export async function getTranslationForEdit(
  kind: TranslationKind,
  key: string,
  language: TranslationLanguage,
) {
  const original = (await originalTexts(db(), { chapters: false })).get(refOf(kind, key));
  if (!original) return undefined;
  const [row] = await db()
    .select()
    .from(t.translations)
    .where(rowKey(kind, key, language));
  return {
    original: { label: labelOf(original), fields: original.fields, body: original.body },
    translation: row && storedOf(row),
    mark: (row
      ? row.sourceDigest === digestOf(original)
        ? "current"
        : "stale"
      : "missing") as TranslationMark,
  };
}

export type OtherSaveOutcome =
  | { ok: true }
  | { ok: false; reason: "notFound" }
  | { ok: false; reason: "conflict"; current: Stored | undefined };

/**
 * Saves a translation made from the version the editor opened (`savedAt`; undefined: none was made), recording
 * the original's digest now, so it is current until the original changes. The stored row is locked, so two
 * saves come one at a time and the later one, made from an older version, is a conflict; two first saves at
 * once are one insert and one conflict. The audit log gets the change; the page cache retires that language's
 * pages (the content revision, ADR 86).
 */
export function saveOtherTranslation(
  kind: TranslationKind,
  key: string,
  language: TranslationLanguage,
  input: { fields: Record<string, unknown>; body: string },
  savedAt: string | undefined,
  actor: Actor & { via: "admin" },
): Promise<OtherSaveOutcome> {
  return db().transaction(async (tx) => {
    const original = (await originalTexts(tx, { chapters: false })).get(refOf(kind, key));
    if (!original) return { ok: false, reason: "notFound" };
    const [current] = await tx
      .select()
      .from(t.translations)
      .where(rowKey(kind, key, language))
      .for("update");
    const conflict = { ok: false, reason: "conflict", current: current && storedOf(current) } as const;
    if (current?.updatedAt.toISOString() !== savedAt) return conflict;
    const row = {
      fields: input.fields,
      bodyMd: input.body,
      sourceDigest: digestOf(original),
      updatedAt: new Date(),
    };
    if (current)
      await tx
        .update(t.translations)
        .set(row)
        .where(rowKey(kind, key, language));
    else {
      const inserted = await tx
        .insert(t.translations)
        .values({ kind, key, language, ...row })
        .onConflictDoNothing()
        .returning({ key: t.translations.key });
      if (inserted.length === 0) return { ...conflict, current: undefined };
    }
    await recordAudit(tx, actor, {
      action: current ? "translation.update" : "translation.create",
      subjectType: kind,
      subjectId: `${key} ${language}`,
      before: current && { fields: current.fields, characters: current.bodyMd.length },
      after: { fields: input.fields, characters: input.body.length },
    });
    return { ok: true };
  });
}

/** Removes a translation (the page shows the original again, with the note); false when there was none. */
export async function removeOtherTranslation(
  kind: TranslationKind,
  key: string,
  language: TranslationLanguage,
  actor: Actor & { via: "admin" },
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [removed] = await tx
      .delete(t.translations)
      .where(rowKey(kind, key, language))
      .returning();
    if (!removed) return false;
    await recordAudit(tx, actor, {
      action: "translation.delete",
      subjectType: kind,
      subjectId: `${key} ${language}`,
      before: { fields: removed.fields, characters: removed.bodyMd.length },
    });
    return true;
  });
}
