import { and, eq, sql } from "drizzle-orm";
import type { Database } from "#db/client.server";
import type { TranslationKind, TranslationLanguage } from "#db/schema";
import * as t from "#db/schema";
import {
  type AnyKind,
  digestOf,
  goalsInOrder,
  type OriginalText,
  originalTexts,
  refOf,
} from "~/features/translations/originals.server";
import { countCjk, countWords } from "~/lib/words";
import { ContentError, formatMarkdownFile, type TranslationDoc } from "./files.server";
import { chapterText } from "./markdown.server";

type Counts = { inserted: number; updated: number; unchanged: number };
type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** One translation as stored: its original, its fields (as the original's front matter names them), its body. */
type Translation = {
  kind: AnyKind;
  key: string;
  language: TranslationLanguage;
  fields: Record<string, unknown>;
  body: string;
  /** The digest its file named, if any. */
  digest?: string;
  file: string;
};

/** Without the fields no reader reads (the digest) and the ones left out. */
function translatedFields(data: Record<string, unknown>): Record<string, unknown> {
  const { originalDigest: _digest, ...fields } = data;
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** A file's translations: one, or a fundraiser file's one a goal (matched by place, in the original's order). */
function translationsOf(doc: TranslationDoc, goals: OriginalText[]): Translation[] {
  const base = { language: doc.language, file: doc.file };
  if (doc.kind !== "fundraiser") {
    const { originalDigest, ...data } = doc.data;
    return [
      {
        ...base,
        kind: doc.kind,
        key: doc.key,
        fields: translatedFields(data),
        body: doc.body,
        digest: originalDigest,
      },
    ];
  }
  if (doc.data.goals.length !== goals.length)
    throw new ContentError(`${doc.file}: ${doc.data.goals.length} goals for the original's ${goals.length}`);
  return doc.data.goals.map((goal, index) => ({
    ...base,
    kind: "goal",
    key: (goals[index] as OriginalText).key,
    fields: { title: goal.title },
    // The file's body describes the first goal, as the original's does.
    body: goal.description ?? (index === 0 ? doc.body : ""),
    digest: goal.originalDigest,
  }));
}

/** JSON with its keys in one order: jsonb keeps its own, not the file's. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * Upserts the translation files in the import's transaction, after the originals: a translation names the
 * digest of the original it was made from (ADR 86); a file without one keeps the digest recorded when its text
 * is unchanged, and takes the original's as it is now when the text changed (it was translated from it). A
 * second import of the same folder changes nothing.
 */
export async function importTranslations(tx: Tx, docs: TranslationDoc[]): Promise<Counts> {
  const counts: Counts = { inserted: 0, updated: 0, unchanged: 0 };
  if (docs.length === 0) return counts;
  const originals = await originalTexts(tx);
  const goals = [...originals.values()].filter((original) => original.kind === "goal");
  const chapterIds = new Map(
    (await tx.select({ id: t.chapters.id, number: t.chapters.number }).from(t.chapters)).map((row) => [
      String(row.number),
      row.id,
    ]),
  );
  for (const translation of docs.flatMap((doc) => translationsOf(doc, goals))) {
    const original = originals.get(refOf(translation.kind, translation.key));
    if (!original)
      throw new ContentError(`${translation.file}: no original ${translation.kind} ${translation.key}`);
    const outcome =
      translation.kind === "chapter"
        ? await writeChapter(tx, translation, original, chapterIds.get(translation.key) as number)
        : await writeOther(tx, translation, original);
    counts[outcome]++;
  }
  return counts;
}

function digestFor(
  translation: Translation,
  original: OriginalText,
  stored?: { same: boolean; digest: string },
) {
  return translation.digest ?? (stored?.same ? stored.digest : digestOf(original));
}

async function writeOther(tx: Tx, translation: Translation, original: OriginalText): Promise<keyof Counts> {
  const kind = translation.kind as TranslationKind;
  const key = and(
    eq(t.translations.kind, kind),
    eq(t.translations.key, translation.key),
    eq(t.translations.language, translation.language),
  );
  const [stored] = await tx.select().from(t.translations).where(key);
  const unchangedText =
    stored !== undefined && same(stored.fields, translation.fields) && stored.bodyMd === translation.body;
  const sourceDigest = digestFor(
    translation,
    original,
    stored && { same: unchangedText, digest: stored.sourceDigest },
  );
  if (stored && unchangedText && stored.sourceDigest === sourceDigest) return "unchanged";
  const row = { fields: translation.fields, bodyMd: translation.body, sourceDigest, updatedAt: sql`now()` };
  if (stored) {
    await tx.update(t.translations).set(row).where(key);
    return "updated";
  }
  await tx
    .insert(t.translations)
    .values({ kind, key: translation.key, language: translation.language, ...row });
  return "inserted";
}

async function writeChapter(
  tx: Tx,
  translation: Translation,
  original: OriginalText,
  chapterId: number,
): Promise<keyof Counts> {
  const fields = translation.fields as {
    title: string;
    artwork?: { caption: string }[];
    paragraphMap?: number[];
    noteBefore?: string;
    noteAfter?: string;
  };
  const originalArtwork = (original.fields.artwork as unknown[]).length;
  const captions = (fields.artwork ?? []).map((artwork) => artwork.caption);
  if (captions.length > 0 && captions.length !== originalArtwork)
    throw new ContentError(
      `${translation.file}: ${captions.length} captions for the original's ${originalArtwork} artworks`,
    );
  const key = and(
    eq(t.chapterTranslations.chapterId, chapterId),
    eq(t.chapterTranslations.language, translation.language),
  );
  const [stored] = await tx.select().from(t.chapterTranslations).where(key);
  const paragraphMap = fields.paragraphMap ?? null;
  // The translation's notes (ADR 100): a file that names none has none (blank is none, as the original's).
  const noteBefore = fields.noteBefore || null;
  const noteAfter = fields.noteAfter || null;
  const unchangedText =
    stored !== undefined &&
    stored.title === fields.title &&
    stored.bodyMd === translation.body &&
    stored.noteBefore === noteBefore &&
    stored.noteAfter === noteAfter &&
    same(stored.captions, captions) &&
    same(stored.paragraphMap, paragraphMap);
  const sourceDigest = digestFor(
    translation,
    original,
    stored && { same: unchangedText, digest: stored.sourceDigest },
  );
  if (stored && unchangedText && stored.sourceDigest === sourceDigest) return "unchanged";
  const text = chapterText(translation.body);
  const row = {
    title: fields.title,
    bodyMd: text.bodyMd,
    bodyHtml: text.bodyHtml,
    bodyHtmlRenderer: text.bodyHtmlRenderer,
    wordCount: countWords(translation.body),
    cjkCount: countCjk(translation.body),
    captions,
    paragraphMap,
    noteBefore,
    noteAfter,
    sourceDigest,
    updatedAt: sql`now()`,
  };
  if (stored) {
    // A new version: an editor opened on the one before saves into a conflict, not over the file's text.
    await tx
      .update(t.chapterTranslations)
      .set({ ...row, version: sql`${t.chapterTranslations.version} + 1` })
      .where(key);
    return "updated";
  }
  await tx.insert(t.chapterTranslations).values({ chapterId, language: translation.language, ...row });
  return "inserted";
}

/** Where each kind's translation is written under `translations/<lang>/` (its original's path). */
function pathOf(kind: AnyKind, key: string): string {
  switch (kind) {
    case "site":
      return "site.md";
    case "legal":
      return `legal/${key}.md`;
    case "volume":
      return `volumes/${key}.md`;
    case "chapter":
      return `chapters/${key}.md`;
    case "wiki":
      return `wiki/${key}.md`;
    case "gallery":
      return `gallery/${key}.md`;
    case "product":
      return `products/${key}.md`;
    case "tier":
      return `tiers/${key}.md`;
    case "coinPack":
      return `coin-packs/${key}.md`;
    case "goal":
      return "fundraiser.md";
  }
}

/**
 * The translations as files (`translations/<lang>/<path>` → text), each naming the digest it was made from, so
 * that an import elsewhere keeps whether it is stale. A fundraiser's file is written when every goal has a
 * translation in that language (the file lists them all, in the original's order).
 */
export async function exportTranslations(database: Pick<Database, "select">): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const chapterRows = await database
    .select({
      number: t.chapters.number,
      hasArtwork: sql<boolean>`jsonb_array_length(${t.chapters.artwork}) > 0`,
      translation: t.chapterTranslations,
    })
    .from(t.chapterTranslations)
    .innerJoin(t.chapters, eq(t.chapters.id, t.chapterTranslations.chapterId));
  for (const { number, hasArtwork, translation } of chapterRows) {
    files.set(
      `translations/${translation.language}/chapters/${number}.md`,
      formatMarkdownFile(
        {
          title: translation.title,
          artwork:
            hasArtwork && translation.captions.length
              ? translation.captions.map((caption) => ({ caption }))
              : undefined,
          paragraphMap: translation.paragraphMap ?? undefined,
          noteBefore: translation.noteBefore ?? undefined,
          noteAfter: translation.noteAfter ?? undefined,
          originalDigest: translation.sourceDigest,
        },
        translation.bodyMd,
      ),
    );
  }
  const rows = await database.select().from(t.translations);
  for (const row of rows) {
    if (row.kind === "goal") continue;
    files.set(
      `translations/${row.language}/${pathOf(row.kind, row.key)}`,
      formatMarkdownFile({ ...row.fields, originalDigest: row.sourceDigest }, row.bodyMd),
    );
  }
  const goals = await goalsInOrder(database);
  for (const language of t.translationLanguages) {
    const translated = goals.map((goal) =>
      rows.find((row) => row.kind === "goal" && row.key === goal.title && row.language === language),
    );
    if (goals.length === 0 || translated.some((row) => row === undefined)) continue;
    const [first, ...rest] = translated as (typeof rows)[number][];
    files.set(
      `translations/${language}/fundraiser.md`,
      formatMarkdownFile(
        {
          goals: [first, ...rest].map((row, index) => ({
            title: (row as (typeof rows)[number]).fields.title,
            ...(index > 0 && row?.bodyMd ? { description: row.bodyMd } : {}),
            originalDigest: row?.sourceDigest,
          })),
        },
        first?.bodyMd ?? "",
      ),
    );
  }
  return files;
}
