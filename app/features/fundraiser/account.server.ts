import { getOwnWallEntry, listOwnGifts } from "./supporters.server";

/** What the account's supporter panels show: how the reader appears on the wall, and their gifts. */
export async function loadSupporterPanel(user: { id: number; username: string }) {
  const [entry, gifts] = await Promise.all([getOwnWallEntry(user.id), listOwnGifts(user.id)]);
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

export type SupporterPanelData = Awaited<ReturnType<typeof loadSupporterPanel>>;
