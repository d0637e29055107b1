import fs from "node:fs/promises";
import path from "node:path";
import { asc, eq, isNull } from "drizzle-orm";
import type { Database } from "#db/client.server";
import * as t from "#db/schema";
import type { MediaStore } from "~/lib/storage.server";
import { formatMarkdownFile } from "./files.server";
import { exportTranslations } from "./translations-io.server";

const isoDate = (date: Date) => date.toISOString().slice(0, 10);
const isoDateTime = (date: Date) => date.toISOString().replace(".000Z", "Z");

/** Writes the database's content back out as a content folder that `importContent` reads unchanged. */
export async function exportContent(database: Database, dir: string, media?: MediaStore): Promise<number> {
  const files = new Map<string, string>();
  const [site] = await database.select().from(t.siteSettings).where(eq(t.siteSettings.id, 1));
  if (site) {
    const { id: _id, aboutMd, ...front } = site;
    files.set("site.md", formatMarkdownFile(front, aboutMd));
  }
  for (const page of await database.select().from(t.legalPages)) {
    files.set(
      `legal/${page.slug}.md`,
      formatMarkdownFile({ title: page.title, updatedAt: isoDate(page.updatedAt) }, page.bodyMd),
    );
  }
  const volumes = await database.select().from(t.volumes).orderBy(asc(t.volumes.number));
  const volumeNumbers = new Map(volumes.map((volume) => [volume.id, volume.number]));
  for (const volume of volumes) {
    files.set(
      `volumes/${volume.number}.md`,
      formatMarkdownFile(
        { number: volume.number, title: volume.title, artwork: volume.artworkUrl ?? undefined },
        volume.summaryMd,
      ),
    );
  }
  for (const chapter of await database.select().from(t.chapters).orderBy(asc(t.chapters.number))) {
    files.set(
      `chapters/${chapter.number}.md`,
      formatMarkdownFile(
        {
          number: chapter.number,
          title: chapter.title,
          volume: volumeNumbers.get(chapter.volumeId),
          releaseAt: isoDateTime(chapter.releaseAt),
          coinsRequired: chapter.coinsRequired,
          tags: chapter.tags,
          status: chapter.status === "published" ? undefined : chapter.status,
          betaReaders: chapter.betaReaders || undefined,
          artwork: chapter.artwork.length ? chapter.artwork : undefined,
          noteBefore: chapter.noteBefore ?? undefined,
          noteAfter: chapter.noteAfter ?? undefined,
        },
        chapter.bodyMd,
      ),
    );
  }
  for (const page of await database.select().from(t.wikiPages)) {
    files.set(
      `wiki/${page.section}/${page.slug}.md`,
      formatMarkdownFile(
        {
          title: page.title,
          summary: page.summary,
          order: page.sortOrder,
          image: page.imageUrl ?? undefined,
          revealsChapter: page.revealsChapter ?? undefined,
        },
        page.bodyMd,
      ),
    );
  }
  for (const item of await database.select().from(t.galleryItems)) {
    files.set(
      `gallery/${item.slug}.md`,
      formatMarkdownFile(
        {
          title: item.title,
          image: item.imageUrl,
          order: item.sortOrder,
          createdAt: isoDate(item.createdAt),
        },
        item.descriptionMd,
      ),
    );
  }
  for (const product of await database.select().from(t.products)) {
    const { descriptionMd, imageUrl, addedAt, ...front } = product;
    files.set(
      `products/${product.id}.md`,
      formatMarkdownFile({ ...front, image: imageUrl, addedAt: isoDate(addedAt) }, descriptionMd),
    );
  }
  for (const tier of await database.select().from(t.supportTiers)) {
    const { pitch, sortOrder, ...front } = tier;
    files.set(`tiers/${tier.key}.md`, formatMarkdownFile({ ...front, order: sortOrder }, pitch));
  }
  for (const pack of await database.select().from(t.coinPacks)) {
    const { description, sortOrder, ...front } = pack;
    files.set(`coin-packs/${pack.key}.md`, formatMarkdownFile({ ...front, order: sortOrder }, description));
  }
  const goals = await database
    .select()
    .from(t.fundraiserGoals)
    .orderBy(asc(t.fundraiserGoals.startsAt), asc(t.fundraiserGoals.id));
  const [first] = goals;
  if (first) {
    // Imported history only: readers' wall entries are account data, not content.
    const supporters = await database
      .select()
      .from(t.supporters)
      .where(isNull(t.supporters.userId))
      .orderBy(asc(t.supporters.supportedAt), asc(t.supporters.id));
    files.set(
      "fundraiser.md",
      formatMarkdownFile(
        {
          goals: goals.map((goal, index) => ({
            title: goal.title,
            period: goal.period,
            targetCents: goal.targetCents,
            currency: goal.currency,
            startsAt: isoDateTime(goal.startsAt),
            ...(goal.endsAt ? { endsAt: isoDateTime(goal.endsAt) } : {}),
            ...(index > 0 && goal.descriptionMd ? { description: goal.descriptionMd } : {}),
          })),
          supporters: supporters.map((s) => ({
            name: s.name,
            tier: s.tier,
            emoji: s.emoji,
            amountCents: s.amountCents,
            supportedAt: isoDateTime(s.supportedAt),
          })),
        },
        first.descriptionMd,
      ),
    );
  }
  const achievements = await database
    .select()
    .from(t.achievements)
    .orderBy(asc(t.achievements.sortOrder), asc(t.achievements.key));
  if (achievements.length) {
    files.set(
      "achievements.md",
      formatMarkdownFile(
        {
          achievements: achievements.map(({ sortOrder, threshold, ...achievement }) => ({
            key: achievement.key,
            icon: achievement.icon,
            category: achievement.category,
            rule: achievement.rule,
            ...(threshold === null ? {} : { threshold }),
            hidden: achievement.hidden,
            order: sortOrder,
            name: achievement.name,
            description: achievement.description,
          })),
        },
        'The achievements readers earn (docs/product-rules.md "Achievements").',
      ),
    );
  }
  for (const upload of await database.select().from(t.uploads).orderBy(asc(t.uploads.id))) {
    files.set(
      `uploads/${upload.hash}.md`,
      formatMarkdownFile(
        {
          filename: upload.originalFilename,
          contentType: upload.contentType,
          width: upload.width,
          height: upload.height,
          bytes: upload.bytes,
          variants: upload.variants,
        },
        "",
      ),
    );
  }
  for (const [name, text] of await exportTranslations(database)) files.set(name, text);
  for (const [name, text] of files) {
    const target = path.join(dir, name);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, text);
  }
  if (media) {
    for (const key of await media.list()) {
      const bytes = await media.get(key);
      if (!bytes) continue;
      const target = path.join(dir, "media", key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, bytes);
    }
  }
  return files.size;
}
