import fs from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import type { z } from "zod";
import { AppError } from "~/lib/errors";
import * as schemas from "./schemas";

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
  mediaDir?: string;
};

export class ContentError extends AppError {
  override name = "ContentError";
  constructor(message?: string) {
    super("content-invalid", 422, "error.body", message);
  }
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

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
    mediaDir: (await exists(mediaDir)) ? mediaDir : undefined,
  };
}
