import { getOwnWallEntry, listOwnGifts } from "./supporters.server";

type WallEntryRow = NonNullable<Awaited<ReturnType<typeof getOwnWallEntry>>>;
type GiftRow = Awaited<ReturnType<typeof listOwnGifts>>[number];

/** What the account's supporter panels show: how the reader appears on the wall, and their gifts. */
export async function loadSupporterPanel(user: { id: number; username: string }) {
  const [entry, gifts] = await Promise.all([getOwnWallEntry(user.id), listOwnGifts(user.id)]);
  return supporterPanel(user, entry, gifts);
}

/** The panels from the reader's wall entry (if any) and gifts, newest first, as read by the two queries above. */
export function supporterPanel(
  user: { username: string },
  entry: WallEntryRow | undefined,
  gifts: GiftRow[],
) {
  return {
    username: user.username,
    entry: entry && {
      display: entry.display,
      displayName: entry.name,
      emoji: entry.emoji,
      message: entry.message,
      tier: entry.tier,
    },
    gifts: gifts.map((gift) => ({
      id: gift.id,
      amountCents: gift.amountCents,
      refundedCents: gift.refundedCents,
      currency: gift.currency,
      status: gift.status,
      date: (gift.paidAt ?? gift.createdAt).toISOString(),
    })),
  };
}

export type SupporterPanelData = ReturnType<typeof supporterPanel>;
