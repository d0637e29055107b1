import { and, asc, eq, gt, lte, notExists, sql } from "drizzle-orm";
import { type Database, db } from "#db/client.server";
import { chapters, chapterUnlocks, users, volumes } from "#db/schema";
import type { RequestMeta } from "~/lib/context";
import { type Tx, unlockIn } from "./unlock.server";

/** What unlocking a volume would take: its released coin chapters this reader has not unlocked. */
export type VolumeQuote = {
  volume: { number: number; title: string };
  chapters: { id: number; number: number; title: string; coinsRequired: number }[];
  total: number;
  balance: number;
};

async function lockedChapters(database: Database | Tx, userId: number, volumeNumber: number, now: Date) {
  return database
    .select({
      id: chapters.id,
      number: chapters.number,
      title: chapters.title,
      coinsRequired: chapters.coinsRequired,
    })
    .from(chapters)
    .innerJoin(volumes, eq(volumes.id, chapters.volumeId))
    .where(
      and(
        eq(volumes.number, volumeNumber),
        eq(chapters.status, "published"),
        lte(chapters.releaseAt, now),
        gt(chapters.coinsRequired, 0),
        notExists(
          database
            .select({ one: sql`1` })
            .from(chapterUnlocks)
            .where(and(eq(chapterUnlocks.userId, userId), eq(chapterUnlocks.chapterId, chapters.id))),
        ),
      ),
    )
    .orderBy(asc(chapters.number));
}

/** The price of a volume's locked coin chapters for this reader, or undefined when there is no such volume. */
export async function volumeQuote(
  userId: number,
  volumeNumber: number,
  now: Date,
): Promise<VolumeQuote | undefined> {
  const [[volume], locked, [reader]] = await Promise.all([
    db()
      .select({ number: volumes.number, title: volumes.title })
      .from(volumes)
      .where(eq(volumes.number, volumeNumber)),
    lockedChapters(db(), userId, volumeNumber, now),
    db().select({ balance: users.coinBalance }).from(users).where(eq(users.id, userId)),
  ]);
  if (!volume) return undefined;
  return {
    volume,
    chapters: locked,
    total: locked.reduce((sum, chapter) => sum + chapter.coinsRequired, 0),
    balance: reader?.balance ?? 0,
  };
}

export type VolumeUnlockResult =
  | { ok: true; count: number; coins: number }
  | { ok: false; reason: "nothing-to-unlock" | "price-changed" | "insufficient-coins" };

/**
 * Unlocks every locked coin chapter of a volume, all or none, in one transaction: the reader's row is locked
 * first, so simultaneous tries of one reader go one after the other and the later ones find nothing left.
 * `expectedTotal` is the price the reader confirmed: if it no longer holds (a chapter released, repriced or
 * unlocked meanwhile), nothing is spent and the reader is shown the new price. Each chapter is booked as a
 * single unlock is (its ledger key charges it once).
 */
export async function unlockVolume(
  userId: number,
  volumeNumber: number,
  expectedTotal: number,
  now: Date,
  meta?: RequestMeta,
): Promise<VolumeUnlockResult> {
  return db()
    .transaction(async (tx) => {
      const [reader] = await tx
        .select({ balance: users.coinBalance })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      const locked = await lockedChapters(tx, userId, volumeNumber, now);
      const total = locked.reduce((sum, chapter) => sum + chapter.coinsRequired, 0);
      if (locked.length === 0) return { ok: false, reason: "nothing-to-unlock" } as const;
      if (total !== expectedTotal) return { ok: false, reason: "price-changed" } as const;
      if (!reader || reader.balance < total) return { ok: false, reason: "insufficient-coins" } as const;
      for (const chapter of locked) {
        const result = await unlockIn(tx, userId, chapter.number, chapter, meta);
        // The chapter went (deleted) since it was read: roll everything back rather than sell part of the volume.
        if (!result.ok || !result.charged) throw new VolumeChanged();
      }
      return { ok: true, count: locked.length, coins: total } as const;
    })
    .catch((error: unknown) => {
      if (error instanceof VolumeChanged) return { ok: false, reason: "price-changed" } as const;
      throw error;
    });
}

class VolumeChanged extends Error {
  override name = "VolumeChanged";
}
