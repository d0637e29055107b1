import { createHash } from "node:crypto";
import { asc } from "drizzle-orm";
import type { Database } from "#db/client.server";
import type { TranslationKind } from "#db/schema";
import * as t from "#db/schema";

/** A kind of translated content: the generic kinds, and chapters (their own table). */
export type AnyKind = TranslationKind | "chapter";

/** One original's translatable text: its fields as a translation names them, and its body. */
export type OriginalText = { kind: AnyKind; key: string; fields: Record<string, unknown>; body: string };

/** The reference of one original: its kind and key. */
export const refOf = (kind: AnyKind, key: string) => `${kind}\n${key}`;

/**
 * The digest of an original's translatable text: what a translation records it was made from, so that it is
 * stale once the original changed (ADR 86). Only the translated fields count: a chapter's release date or a
 * product's price moving leaves its translations current.
 */
export function digestOf(original: Pick<OriginalText, "fields" | "body">): string {
  const fields = Object.keys(original.fields)
    .sort()
    .map((name) => [name, original.fields[name]]);
  return createHash("sha256")
    .update(JSON.stringify([fields, original.body]))
    .digest("hex")
    .slice(0, 32);
}

/** The goals in the order the fundraiser's file lists them (as the export writes it). */
export function goalsInOrder(database: Pick<Database, "select">) {
  return database
    .select()
    .from(t.fundraiserGoals)
    .orderBy(asc(t.fundraiserGoals.startsAt), asc(t.fundraiserGoals.id));
}

/**
 * A chapter's translatable text: its title, captions and author's notes, and its body (what its digest is made
 * of). A note is counted only when there is one (ADR 100), so a chapter without notes keeps the digest it had
 * before notes were translatable, and its translations stay current.
 */
export function chapterOriginal(chapter: {
  title: string;
  artwork: { caption: string }[];
  bodyMd: string;
  noteBefore: string | null;
  noteAfter: string | null;
}): [Record<string, unknown>, string] {
  return [
    {
      title: chapter.title,
      artwork: chapter.artwork.map(({ caption }) => ({ caption })),
      ...(chapter.noteBefore ? { noteBefore: chapter.noteBefore } : {}),
      ...(chapter.noteAfter ? { noteAfter: chapter.noteAfter } : {}),
    },
    chapter.bodyMd,
  ];
}

/**
 * Every original's translatable text, by reference (`refOf`); without the chapters when `chapters` is false
 * (their texts are most of the serial's bytes, and the admin's list of other translations reads none).
 */
export async function originalTexts(
  database: Pick<Database, "select">,
  { chapters = true }: { chapters?: boolean } = {},
): Promise<Map<string, OriginalText>> {
  const all: OriginalText[] = [];
  const add = (kind: AnyKind, key: string, fields: Record<string, unknown>, body: string) =>
    all.push({ kind, key, fields, body });
  for (const site of await database.select().from(t.siteSettings)) {
    const { title, tagline, synopsis, location, role, socialLabel, communityLabel } = site;
    add(
      "site",
      "site",
      { title, tagline, synopsis, location, role, socialLabel, communityLabel },
      site.aboutMd,
    );
  }
  for (const page of await database.select().from(t.legalPages))
    add("legal", page.slug, { title: page.title }, page.bodyMd);
  for (const volume of await database.select().from(t.volumes))
    add("volume", String(volume.number), { title: volume.title }, volume.summaryMd);
  if (chapters)
    for (const chapter of await database
      .select({
        number: t.chapters.number,
        title: t.chapters.title,
        artwork: t.chapters.artwork,
        bodyMd: t.chapters.bodyMd,
        noteBefore: t.chapters.noteBefore,
        noteAfter: t.chapters.noteAfter,
      })
      .from(t.chapters))
      add("chapter", String(chapter.number), ...chapterOriginal(chapter));
  for (const page of await database.select().from(t.wikiPages))
    add("wiki", `${page.section}/${page.slug}`, { title: page.title, summary: page.summary }, page.bodyMd);
  for (const item of await database.select().from(t.galleryItems))
    add("gallery", item.slug, { title: item.title }, item.descriptionMd);
  for (const product of await database.select().from(t.products))
    add("product", String(product.id), { name: product.name }, product.descriptionMd);
  for (const tier of await database.select().from(t.supportTiers))
    add("tier", tier.key, { name: tier.name, perks: tier.perks }, tier.pitch);
  for (const pack of await database.select().from(t.coinPacks))
    add("coinPack", pack.key, {}, pack.description);
  for (const goal of await goalsInOrder(database))
    add("goal", goal.title, { title: goal.title }, goal.descriptionMd);
  return new Map(all.map((original) => [refOf(original.kind, original.key), original]));
}
