import type { SessionUser } from "~/features/auth/session.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { releaseTime } from "~/lib/clock.server";
import type { RequestMeta } from "~/lib/context";
import { logger } from "~/lib/logger.server";

type Answer =
  | { status: 200; body: { unlocked: true } }
  | { status: 409; body: { alreadyUnlocked: true } }
  | { status: 409; body: { error: string } };

/** The chapter page's "unlock with coins": what the page is told, with its HTTP status. */
export async function unlockFromPage(user: SessionUser, chapter: number, meta: RequestMeta): Promise<Answer> {
  const result = await unlockChapter(user.id, chapter, releaseTime(), meta);
  if (!result.ok) {
    logger.info(
      { userId: user.id, chapter, reason: result.reason, requestId: meta.requestId },
      "unlock refused",
    );
    const error =
      result.reason === "insufficient-coins" ? "reader.unlock.insufficient" : "reader.unlock.failed";
    return { status: 409, body: { error } };
  }
  // Only the request that unlocked the chapter succeeds; a repeat (another tab, a double click) changed
  // nothing and charged nothing: 409, and the page simply shows the text.
  if (!result.charged) return { status: 409, body: { alreadyUnlocked: true } };
  return { status: 200, body: { unlocked: true } };
}
