import fs from "node:fs/promises";
import path from "node:path";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database } from "#db/client.server";
import * as t from "#db/schema";
import type { MediaStore } from "~/lib/storage.server";
import { countWords } from "~/lib/words";
import { type ContentBundle, ContentError } from "./files.server";
import { chapterText } from "./markdown.server";
import { resolveReleaseAt } from "./schemas";
import { importTranslations } from "./translations-io.server";

export type Counts = { inserted: number; updated: number; unchanged: number };
export type ImportReport = Record<string, Counts>;

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Statements of at most 200 rows and about 1 MB: a chapter with its rendering is some 60 KB. */
const BATCH_ROWS = 200;
const BATCH_BYTES = 1024 * 1024;

/**
 * The rows in batches by count and by size: PGlite holds a statement's parameters in its WebAssembly memory,
 * which never shrinks (200 generated chapters with their renderings are 12 MB; the 1,000-chapter import's
 * peak went from 627 to 611 MB with 1 MB batches).
 */
function* batches<T>(rows: T[], prepare: (row: T) => T): Generator<T[]> {
  let batch: T[] = [];
  let bytes = 0;
  for (const given of rows) {
    const row = prepare(given);
    const size = JSON.stringify(row).length;
    if (batch.length > 0 && (batch.length >= BATCH_ROWS || bytes + size > BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(row);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}

/**
 * Inserts rows, or updates the existing row with the same key only where a value differs,
 * so that importing the same folder twice changes nothing.
 */
async function upsert<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: T["$inferInsert"][],
  target: PgColumn[],
  touch: Record<string, SQL> = {},
  /** The predicate of a partial unique index that `target` names. */
  targetWhere?: SQL,
  /** Completes a row just before its batch is written (a chapter's rendering: made batch by batch). */
  prepare: (row: T["$inferInsert"]) => T["$inferInsert"] = (row) => row,
): Promise<Counts> {
  const counts: Counts = { inserted: 0, updated: 0, unchanged: 0 };
  const first = rows[0] && prepare(rows[0]);
  if (!first) return counts;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const targetNames = new Set(target.map((column) => column.name));
  const updatable = Object.keys(first).filter((key) => {
    const column = columns[key];
    return column && !targetNames.has(column.name);
  });
  const excluded = (key: string) => sql`excluded.${sql.identifier(columns[key]?.name ?? key)}`;
  const set = Object.fromEntries([...updatable.map((key) => [key, excluded(key)]), ...Object.entries(touch)]);
  const current = sql.join(
    updatable.map((key) => sql`${columns[key]}`),
    sql`, `,
  );
  const incoming = sql.join(updatable.map(excluded), sql`, `);
  for (const batch of batches(rows, prepare)) {
    const written = updatable.length
      ? await tx
          .insert(table)
          .values(batch)
          .onConflictDoUpdate({
            target,
            targetWhere,
            set,
            setWhere: sql`(${current}) is distinct from (${incoming})`,
          })
          .returning({ inserted: sql<boolean>`(xmax = 0)` })
      : await tx
          .insert(table)
          .values(batch)
          .onConflictDoNothing({ target, where: targetWhere })
          .returning({ inserted: sql<boolean>`true` });
    const inserted = written.filter((row) => row.inserted).length;
    counts.inserted += inserted;
    counts.updated += written.length - inserted;
    counts.unchanged += batch.length - written.length;
  }
  return counts;
}

async function copyMedia(dir: string, store: MediaStore): Promise<Counts> {
  const counts: Counts = { inserted: 0, updated: 0, unchanged: 0 };
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const key = path.relative(dir, absolute).split(path.sep).join("/");
    const existed = (await store.get(key)) !== undefined;
    const changed = await store.put(key, await fs.readFile(absolute));
    if (!changed) counts.unchanged++;
    else if (existed) counts.updated++;
    else counts.inserted++;
  }
  return counts;
}

/** Records the uploads not recorded yet (an upload never changes: its hash names its bytes). */
async function importUploads(database: Database, uploads: ContentBundle["uploads"]): Promise<Counts> {
  const written = await database
    .insert(t.uploads)
    .values(
      uploads.map(({ hash, data }) => ({
        hash,
        keyPrefix: `uploads/${hash}/`,
        originalFilename: data.filename,
        contentType: data.contentType,
        width: data.width,
        height: data.height,
        bytes: data.bytes,
        variants: data.variants,
      })),
    )
    .onConflictDoNothing({ target: t.uploads.hash })
    .returning({ id: t.uploads.id });
  return { inserted: written.length, updated: 0, unchanged: uploads.length - written.length };
}

/** Upserts a content bundle in one transaction (all or nothing), then copies its media. */
export async function importContent(
  database: Database,
  bundle: ContentBundle,
  options: { media?: MediaStore; now?: Date } = {},
): Promise<ImportReport> {
  const now = options.now ?? new Date();
  const report: ImportReport = await database.transaction(async (tx) => {
    const result: ImportReport = {};
    if (bundle.site) {
      const { data, body } = bundle.site;
      result.site = await upsert(
        tx,
        t.siteSettings,
        [{ id: 1, ...data, aboutMd: body }],
        [t.siteSettings.id],
      );
    }
    result.legal = await upsert(
      tx,
      t.legalPages,
      bundle.legal.map(({ slug, data, body }) => ({
        slug,
        title: data.title,
        bodyMd: body,
        updatedAt: data.updatedAt,
      })),
      [t.legalPages.slug],
    );
    result.volumes = await upsert(
      tx,
      t.volumes,
      bundle.volumes.map(({ data, body }) => ({
        number: data.number,
        title: data.title,
        summaryMd: body,
        artworkUrl: data.artwork ?? null,
      })),
      [t.volumes.number],
    );
    const volumeIds = new Map(
      (await tx.select({ id: t.volumes.id, number: t.volumes.number }).from(t.volumes)).map((v) => [
        v.number,
        v.id,
      ]),
    );
    result.chapters = await upsert(
      tx,
      t.chapters,
      bundle.chapters.map(({ file, data, body }) => {
        const volumeId = volumeIds.get(data.volume);
        if (volumeId === undefined) throw new ContentError(`${file}: volume ${data.volume} does not exist`);
        return {
          number: data.number,
          volumeId,
          title: data.title,
          bodyMd: body,
          wordCount: countWords(body),
          releaseAt: resolveReleaseAt(data.releaseAt, now),
          coinsRequired: data.coinsRequired,
          tags: data.tags,
          artwork: data.artwork,
          status: data.status,
          betaReaders: data.betaReaders,
          noteBefore: data.noteBefore || null,
          noteAfter: data.noteAfter || null,
        };
      }),
      [t.chapters.number],
      // A changed chapter is a new version: an editor open on the old one gets a conflict, not an overwrite.
      { updatedAt: sql`now()`, version: sql`${t.chapters.version} + 1` },
      undefined,
      // Each text rendered for readers as its batch is written: a serial's renderings are never all held
      // at once (rendering 1,000 generated chapters up front took a process from 149 to 349 MB; the import's
      // peak went from 611 to 584 MB).
      (row) => ({ ...row, ...chapterText(row.bodyMd) }),
    );
    result.wiki = await upsert(
      tx,
      t.wikiPages,
      bundle.wiki.map(({ section, slug, data, body }) => ({
        section,
        slug,
        title: data.title,
        summary: data.summary,
        bodyMd: body,
        imageUrl: data.image ?? null,
        sortOrder: data.order,
        revealsChapter: data.revealsChapter ?? null,
      })),
      [t.wikiPages.section, t.wikiPages.slug],
    );
    result.gallery = await upsert(
      tx,
      t.galleryItems,
      bundle.gallery.map(({ slug, data, body }) => ({
        slug,
        title: data.title,
        imageUrl: data.image,
        descriptionMd: body,
        sortOrder: data.order,
        createdAt: data.createdAt,
      })),
      [t.galleryItems.slug],
    );
    result.products = await upsert(
      tx,
      t.products,
      bundle.products.map(({ data, body }) => ({
        id: data.id,
        name: data.name,
        descriptionMd: body,
        priceCents: data.priceCents,
        currency: data.currency,
        category: data.category,
        membershipDays: data.membershipDays,
        stock: data.stock,
        imageUrl: data.image,
        addedAt: data.addedAt,
        variantKind: data.variantKind,
        requiresShipping: data.requiresShipping,
        offersDedication: data.offersDedication,
      })),
      [t.products.id],
    );
    result.tiers = await upsert(
      tx,
      t.supportTiers,
      bundle.tiers.map(({ data, body }) => ({
        key: data.key,
        name: data.name,
        amountCents: data.amountCents,
        currency: data.currency,
        perks: data.perks,
        pitch: body,
        sortOrder: data.order,
      })),
      [t.supportTiers.key],
    );
    result.coinPacks = await upsert(
      tx,
      t.coinPacks,
      bundle.coinPacks.map(({ data, body }) => ({
        key: data.key,
        coins: data.coins,
        priceCents: data.priceCents,
        currency: data.currency,
        description: body,
        sortOrder: data.order,
      })),
      [t.coinPacks.key],
    );
    if (bundle.fundraiser) {
      const { goals, supporters } = bundle.fundraiser.data;
      const body = bundle.fundraiser.body;
      result.goals = await upsert(
        tx,
        t.fundraiserGoals,
        goals.map(({ description, endsAt, ...goal }, index) => ({
          ...goal,
          endsAt: endsAt ?? null,
          // The file's body describes the first goal; the others carry their own `description`.
          descriptionMd: index === 0 && !description ? body : description,
        })),
        [t.fundraiserGoals.title],
      );
      // Imported history is in the first goal's currency.
      const currency = goals[0]?.currency ?? "USD";
      result.supporters = await upsert(
        tx,
        t.supporters,
        supporters.map((supporter) => ({ ...supporter, currency })),
        [t.supporters.name, t.supporters.supportedAt],
        {},
        // Imported history only: a reader's wall entry is theirs, never overwritten by an import.
        sql`${t.supporters.userId} is null`,
      );
    }
    if (bundle.achievements) {
      result.achievements = await upsert(
        tx,
        t.achievements,
        bundle.achievements.data.achievements.map(({ order, threshold, ...achievement }) => ({
          ...achievement,
          threshold: threshold ?? null,
          sortOrder: order,
        })),
        [t.achievements.key],
      );
      // No trigger moves the content revision on this table (migration 0003 predates it), and servers keep
      // the catalogue until the revision moves (achievements/queries.server.ts): a change moves it here.
      if (result.achievements.inserted + result.achievements.updated > 0)
        await tx
          .update(t.contentRevision)
          .set({ revision: sql`${t.contentRevision.revision} + 1` })
          .where(sql`${t.contentRevision.id} = 1`);
    }
    // After the originals: a translation names the original it was made from.
    if (bundle.translations.length) result.translations = await importTranslations(tx, bundle.translations);
    return result;
  });
  if (bundle.mediaDir && options.media) {
    report.media = await copyMedia(bundle.mediaDir, options.media);
    // The uploads' records after their files, as an upload is saved: a record never names files not stored.
    if (bundle.uploads.length) report.uploads = await importUploads(database, bundle.uploads);
  }
  return report;
}

/** True when nothing has been loaded yet: the start-up seed runs only then. */
export async function isDatabaseEmpty(database: Database): Promise<boolean> {
  const rows = await database.select({ id: t.siteSettings.id }).from(t.siteSettings).limit(1);
  return rows.length === 0;
}
