import fs from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import type { z } from "zod";
import { type TranslationLanguage, translationLanguages } from "#db/schema";
import { AppError } from "~/lib/errors";
import * as schemas from "./schemas";
import {
  TRANSLATED_BODY_MAX,
  TRANSLATED_CHAPTER_MAX,
  type TranslationFileKind,
  translationSchemas,
} from "./translation-schemas";

/** A translation file (ADR 86): its language, the kind and key of its original, its fields and body. */
export type TranslationDoc = {
  [K in TranslationFileKind]: Doc<z.infer<(typeof translationSchemas)[K]>> & {
    kind: K;
    key: string;
    language: TranslationLanguage;
  };
}[TranslationFileKind];

/** One Markdown file: validated front matter plus body. */
export type Doc<T> = { file: string; data: T; body: string };

export type ContentBundle = {
  site?: Doc<z.infer<typeof schemas.siteSchema>>;
  legal: (Doc<z.infer<typeof schemas.legalSchema>> & { slug: string })[];
  volumes: Doc<z.infer<typeof schemas.volumeSchema>>[];
  chapters: Doc<z.infer<typeof schemas.chapterSchema>>[];
  wiki: (Doc<z.infer<typeof schemas.wikiSchema>> & { section: schemas.WikiSectionKey; slug: string })[];
  gallery: (Doc<z.infer<typeof schemas.gallerySchema>> & { slug: string })[];
  products: Doc<z.infer<typeof schemas.productSchema>>[];
  tiers: Doc<z.infer<typeof schemas.tierSchema>>[];
  coinPacks: Doc<z.infer<typeof schemas.coinPackSchema>>[];
  fundraiser?: Doc<z.infer<typeof schemas.fundraiserSchema>>;
  achievements?: Doc<z.infer<typeof schemas.achievementsSchema>>;
  uploads: (Doc<z.infer<typeof schemas.uploadSchema>> & { hash: string })[];
  translations: TranslationDoc[];
  mediaDir?: string;
};

export class ContentError extends AppError {
  override name = "ContentError";
  constructor(message?: string) {
    super("content-invalid", 422, "error.body", message);
  }
}

/** Front matter between `---` lines, which may be empty (a coin pack's translation has no fields). */
const FRONT_MATTER = /^---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

export function parseMarkdownFile<S extends z.ZodType>(
  file: string,
  text: string,
  schema: S,
): Doc<z.output<S>> {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new ContentError(`${file}: missing front matter (--- ... ---)`);
  let raw: unknown;
  try {
    raw = YAML.parse(match[1] ?? "") ?? {};
  } catch (error) {
    throw new ContentError(`${file}: front matter is not valid YAML: ${(error as Error).message}`);
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map(
      (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
    throw new ContentError(`${file}: ${issues.join("; ")}`);
  }
  return { file, data: result.data, body: (match[2] ?? "").trim() };
}

export function formatMarkdownFile(frontMatter: Record<string, unknown>, body: string): string {
  const clean = Object.fromEntries(Object.entries(frontMatter).filter(([, value]) => value !== undefined));
  return `---\n${YAML.stringify(clean, { lineWidth: 0 }).trimEnd()}\n---\n\n${body.trim()}\n`;
}

async function exists(target: string) {
  return fs.stat(target).then(
    () => true,
    () => false,
  );
}

async function markdownFiles(dir: string): Promise<string[]> {
  if (!(await exists(dir))) return [];
  const names = await fs.readdir(dir);
  return names
    .filter((name) => name.endsWith(".md"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((name) => path.join(dir, name));
}

async function readDocs<S extends z.ZodType>(dir: string, schema: S) {
  const files = await markdownFiles(dir);
  return Promise.all(
    files.map(async (file) => parseMarkdownFile(file, await fs.readFile(file, "utf8"), schema)),
  );
}

const slugOf = (file: string) => path.basename(file, ".md");

/** Reads and validates a content folder; every error names its file. */
export async function readContentDir(root: string): Promise<ContentBundle> {
  if (!(await exists(root))) throw new ContentError(`${root}: no such folder`);
  const readOne = async <S extends z.ZodType>(name: string, schema: S) => {
    const file = path.join(root, name);
    return (await exists(file))
      ? parseMarkdownFile(file, await fs.readFile(file, "utf8"), schema)
      : undefined;
  };
  const wiki: ContentBundle["wiki"] = [];
  for (const section of schemas.wikiSectionSchema.options) {
    for (const doc of await readDocs(path.join(root, "wiki", section), schemas.wikiSchema)) {
      wiki.push({ ...doc, section, slug: slugOf(doc.file) });
    }
  }
  const mediaDir = path.join(root, "media");
  return {
    site: await readOne("site.md", schemas.siteSchema),
    legal: (await readDocs(path.join(root, "legal"), schemas.legalSchema)).map((doc) => ({
      ...doc,
      slug: slugOf(doc.file),
    })),
    volumes: await readDocs(path.join(root, "volumes"), schemas.volumeSchema),
    chapters: await readDocs(path.join(root, "chapters"), schemas.chapterSchema),
    wiki,
    gallery: (await readDocs(path.join(root, "gallery"), schemas.gallerySchema)).map((doc) => ({
      ...doc,
      slug: slugOf(doc.file),
    })),
    products: await readDocs(path.join(root, "products"), schemas.productSchema),
    tiers: await readDocs(path.join(root, "tiers"), schemas.tierSchema),
    coinPacks: await readDocs(path.join(root, "coin-packs"), schemas.coinPackSchema),
    fundraiser: await readOne("fundraiser.md", schemas.fundraiserSchema),
    achievements: await readOne("achievements.md", schemas.achievementsSchema),
    uploads: (await readDocs(path.join(root, "uploads"), schemas.uploadSchema)).map((doc) => {
      const hash = slugOf(doc.file);
      if (!/^[0-9a-f]{32}$/.test(hash))
        throw new ContentError(`${doc.file}: the name is not an upload's hash`);
      if (doc.data.variants.some((variant) => !variant.key.startsWith(`uploads/${hash}/`)))
        throw new ContentError(`${doc.file}: a variant lies outside uploads/${hash}/`);
      return { ...doc, hash };
    }),
    translations: await readTranslations(path.join(root, "translations")),
    mediaDir: (await exists(mediaDir)) ? mediaDir : undefined,
  };
}

/** The largest translation file read: a long chapter's text in a language that takes more bytes. */
const TRANSLATION_FILE_MAX = 1024 * 1024;

/** Where each kind's files are under a language's folder, and how a file's path names its original. */
const translationPlaces: {
  pattern: RegExp;
  kind: TranslationFileKind;
  key: (m: RegExpExecArray) => string;
}[] = [
  { pattern: /^site\.md$/, kind: "site", key: () => "site" },
  { pattern: /^fundraiser\.md$/, kind: "fundraiser", key: () => "fundraiser" },
  { pattern: /^legal\/([a-z0-9-]{1,60})\.md$/, kind: "legal", key: (m) => m[1] as string },
  { pattern: /^volumes\/([1-9]\d{0,5})\.md$/, kind: "volume", key: (m) => m[1] as string },
  { pattern: /^chapters\/([1-9]\d{0,5})\.md$/, kind: "chapter", key: (m) => m[1] as string },
  {
    pattern: /^wiki\/(characters|world|items)\/([a-z0-9-]{1,80})\.md$/,
    kind: "wiki",
    key: (m) => `${m[1]}/${m[2]}`,
  },
  { pattern: /^gallery\/([a-z0-9-]{1,80})\.md$/, kind: "gallery", key: (m) => m[1] as string },
  { pattern: /^products\/([1-9]\d{0,8})\.md$/, kind: "product", key: (m) => m[1] as string },
  { pattern: /^tiers\/([a-z_]{1,40})\.md$/, kind: "tier", key: (m) => m[1] as string },
  { pattern: /^coin-packs\/([a-z0-9-]{1,40})\.md$/, kind: "coinPack", key: (m) => m[1] as string },
];

/** One translation file's text, checked: its place names its kind and original, its front matter its kind's. */
export function parseTranslationFile(
  file: string,
  language: TranslationLanguage,
  relative: string,
  text: string,
): TranslationDoc {
  if (text.length > TRANSLATION_FILE_MAX) throw new ContentError(`${file}: larger than 1 MB`);
  let place: { kind: TranslationFileKind; key: string } | undefined;
  for (const candidate of translationPlaces) {
    const match = candidate.pattern.exec(relative);
    if (match) place = { kind: candidate.kind, key: candidate.key(match) };
  }
  if (!place) throw new ContentError(`${file}: not the path of an original (docs/content-format.md)`);
  const doc = parseMarkdownFile(file, text, translationSchemas[place.kind]);
  const max = place.kind === "chapter" ? TRANSLATED_CHAPTER_MAX : TRANSLATED_BODY_MAX;
  if (doc.body.length > max) throw new ContentError(`${file}: the text is longer than ${max} characters`);
  return { ...doc, ...place, language } as TranslationDoc;
}

/** `translations/<lang>/<the original's path>`: every file read and checked, in a stable order. */
async function readTranslations(dir: string): Promise<TranslationDoc[]> {
  if (!(await exists(dir))) return [];
  const docs: TranslationDoc[] = [];
  for (const entry of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const language = translationLanguages.find((known) => known === entry.name);
    if (!language || !entry.isDirectory())
      throw new ContentError(`${path.join(dir, entry.name)}: not a language's folder (es, fr, ja)`);
    const base = path.join(dir, language);
    const files = (await fs.readdir(base, { recursive: true, withFileTypes: true }))
      .filter((file) => file.isFile())
      .map((file) => path.relative(base, path.join(file.parentPath, file.name)).split(path.sep).join("/"))
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    for (const relative of files) {
      const file = path.join(base, relative);
      if ((await fs.stat(file)).size > TRANSLATION_FILE_MAX)
        throw new ContentError(`${file}: larger than 1 MB`);
      docs.push(parseTranslationFile(file, language, relative, await fs.readFile(file, "utf8")));
    }
  }
  return docs;
}
