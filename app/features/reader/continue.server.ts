import { getTableOfContents } from "~/features/chapters/queries.server";
import { releaseTime } from "~/lib/clock.server";
import { readsAheadOf } from "./access.server";
import { continueTarget, toMarks } from "./continue";
import { getProgress } from "./queries.server";

/**
 * The chapter a signed-in reader's "Continue reading" leads to, by the progress their account holds (as the
 * table of contents shows it), or undefined when they have read nothing yet.
 */
export async function continueReadingFor(userId: number, now = releaseTime()): Promise<number | undefined> {
  const [progress, volumes] = await Promise.all([
    getProgress(userId),
    readsAheadOf(userId, now).then((ahead) => getTableOfContents(now, ahead)),
  ]);
  const readable = volumes.flatMap((volume) =>
    volume.chapters.filter((chapter) => chapter.status !== "locked").map((chapter) => chapter.number),
  );
  return continueTarget(toMarks(progress), readable);
}
