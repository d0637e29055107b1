import { releaseTime } from "~/lib/clock.server";
import "~/i18n/full-catalogue";
import { memo, startTransition, useEffect, useState } from "react";
import { data, useLocation } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import type { TocChapter } from "~/features/chapters/queries.server";
import { getTableOfContents } from "~/features/chapters/queries.server";
import { ChapterStatusBadge } from "~/features/chapters/status-badge";
import { unlockedChapterNumbers } from "~/features/coins/queries.server";
import { commentCounts } from "~/features/comments/queries.server";
import { readsAheadOf } from "~/features/reader/access.server";
import { continueTarget, type ProgressMark, toMarks } from "~/features/reader/continue";
import { getProgress } from "~/features/reader/queries.server";
import { loadAllStoredProgress } from "~/features/reader/storage";
import { NotifyButton } from "~/features/release-mails/notify-button";
import { newChapterEmailsOn } from "~/features/release-mails/subscription.server";
import { getSiteSettings } from "~/features/site/queries.server";
import { type TocPageVolume, tocPage } from "~/features/toc/page";
import { tocIn } from "~/features/toc/translated.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { shareableIf, shareableIfLoaderSays } from "~/lib/shareable";
import { book } from "~/lib/structured-data";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { useSiteFacts } from "~/ui/page-meta";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/toc";

export async function loader({ request, params }: Route.LoaderArgs) {
  // /toc/volume/N opens volume N (a long serial shows one volume open: ADR 37).
  const requested = params.volume === undefined ? undefined : Number(params.volume);
  if (requested !== undefined && !(/^\d{1,6}$/.test(params.volume ?? "") && requested > 0))
    throw data(null, { status: 404 });
  const user = await getSessionUser(request);
  const now = releaseTime();
  const [toc, site, progress, notify, comments] = await Promise.all([
    // A signed-in reader's table is rendered for them alone (not kept): their read-ahead and unlocks show.
    user
      ? Promise.all([readsAheadOf(user.id, now), unlockedChapterNumbers(user.id)]).then(([ahead, unlocked]) =>
          getTableOfContents(now, ahead, unlocked),
        )
      : getTableOfContents(now),
    getSiteSettings(),
    user ? getProgress(user.id) : undefined,
    // "Notify me": the reader's e-mail choice (a visitor's page, the same for all, links to sign in).
    user ? newChapterEmailsOn(user.id) : undefined,
    commentCounts(),
  ]);
  // The titles, summaries and synopsis in the page's language where translated (ADR 86).
  const { volumes, synopsis } = await tocIn(toc, site.synopsis, getPreferences(request).language);
  if (requested !== undefined && !volumes.some((volume) => volume.number === requested))
    throw data(null, { status: 404 });
  const marks = progress ? toMarks(progress) : undefined;
  // A visitor's marks come from browser storage after the page shows: the page is the same for all of them.
  return data(
    {
      ...tocPage(volumes, { requested, marks }),
      synopsis,
      author: site.author,
      path: requested === undefined ? "/toc" : `/toc/volume/${requested}`,
      marks,
      notify,
      comments,
      // A signed-in reader's own table offers to unlock a volume's locked chapters at once (ADR 90), and the
      // EPUB links say whose copy it is (a visitor's holds the free chapters).
      signedIn: Boolean(user),
      // The release time of the render: an upcoming chapter's words (a date, or today's time) are chosen by it.
      now: now.toISOString(),
    },
    { headers: shareableIf(!user) },
  );
}

export const headers = shareableIfLoaderSays;

/**
 * Signed-in readers' marks come with the page; a visitor's from this browser's storage, after hydration.
 * Applying them is a transition (the browser stays responsive) that re-renders only the rows whose mark
 * changed (`ChapterRow` is memoised): a table of 1,000 chapters is 11,000 elements.
 */
function useMarks(fromServer: Record<number, ProgressMark> | undefined) {
  const [marks, setMarks] = useState(fromServer ?? {});
  useEffect(() => {
    startTransition(() => setMarks(fromServer ?? toMarks(loadAllStoredProgress())));
  }, [fromServer]);
  return marks;
}

function ProgressBadge({ mark }: { mark?: ProgressMark }) {
  const { t } = useTranslation();
  if (!mark || (!mark.completed && mark.percent === 0)) return null;
  return (
    <span className="text-xs text-accent">
      {mark.completed ? t("toc.read") : t("toc.inProgress", { percent: mark.percent })}
    </span>
  );
}

const ChapterRow = memo(function ChapterRow({
  chapter,
  mark,
  comments,
  now,
}: {
  chapter: TocChapter;
  mark?: ProgressMark;
  comments?: number;
  now: string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const label = (
    <>
      <span className="flex flex-col">
        <span className="text-sm text-muted">{t("reader.chapterNumber", { number: chapter.number })}</span>
        <span className="font-display text-lg">{chapter.title}</span>
        {/* Under the title, so a narrow screen keeps the title's width. An upcoming chapter's date is its
            status badge's ("Releases …"), not said twice. */}
        <span className="text-xs text-muted">
          {chapter.status === "locked" ? null : (
            <>
              <time dateTime={chapter.releaseAt}>{format.date(chapter.releaseAt)}</time>
              {" · "}
            </>
          )}
          {t("toc.words", { count: chapter.words, formatted: format.number(chapter.words) })}
          {` · ${t("toc.minutes", { count: chapter.minutes })}`}
          {comments ? ` · ${t("toc.comments", { count: comments })}` : ""}
        </span>
      </span>
      <span className="flex shrink-0 flex-col items-end gap-1">
        <ChapterStatusBadge chapter={chapter} now={now} />
        <ProgressBadge mark={mark} />
      </span>
    </>
  );
  const rowClass = "flex items-center justify-between gap-4 rounded-lg border border-line px-4 py-3";
  if (chapter.status === "locked") {
    // Locked chapters are listed but not navigable, until the countdown's "Out now" link (then not dimmed).
    return <div className={`${rowClass} opacity-70 has-[a]:opacity-100`}>{label}</div>;
  }
  return (
    <Link
      to={`/chapter/${chapter.number}`}
      className={`${rowClass} bg-[color:var(--surface)] hover:border-primary`}
    >
      {label}
    </Link>
  );
});

/** A closed volume (ADR 37): its range of chapters and a link that opens it. */
function ClosedVolume({ volume }: { volume: TocPageVolume }) {
  const { t } = useTranslation();
  return (
    <p className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-line px-4 py-3">
      <span className="text-muted">
        {volume.chapterCount === 1
          ? t("reader.chapterNumber", { number: volume.first })
          : t("toc.range", { first: volume.first, last: volume.last })}
        {" · "}
        {t("toc.chapterCount", { count: volume.chapterCount })}
      </span>
      <Link to={`/toc/volume/${volume.number}#volume-${volume.number}`} className={buttonClass("outline")}>
        {t("toc.showChapters", { number: volume.number })}
      </Link>
    </p>
  );
}

/** The EPUB of the serial (ADR 89): a plain link, the file comes as an attachment. */
function EpubDownload({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="mb-8 flex flex-wrap items-center gap-3 rounded-lg border border-line px-4 py-3">
      <a href="/epub" download className={buttonClass("outline")} data-testid="epub-serial">
        {t("toc.epubDownload")}
      </a>
      <p className="min-w-0 flex-1 basis-60 text-sm text-muted">
        {signedIn ? t("toc.epubReader") : t("toc.epubVisitor")}
      </p>
    </div>
  );
}

/** The serial's totals: released chapters, words and hours of reading. */
function Totals({ totals }: { totals: { chapters: number; words: number; hours: number } }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <p className="mb-6 text-muted">
      {t("toc.totals", {
        chapters: t("toc.chapterCount", { count: totals.chapters }),
        words: t("toc.words", { count: totals.words, formatted: format.number(totals.words) }),
        hours: t("toc.hours", { count: totals.hours, formatted: format.number(totals.hours) }),
      })}
    </p>
  );
}

/** A signed-in reader's offer to unlock a volume's locked coin chapters at once: the price comes first. */
function UnlockVolume({ volume }: { volume: TocPageVolume }) {
  const { t } = useTranslation();
  if (volume.locked.count === 0) return null;
  return (
    <Link to={`/unlock/volume/${volume.number}`} className={`${buttonClass("outline")} mb-4`}>
      {t("toc.unlockVolume", { count: volume.locked.count, coins: volume.locked.coins })}
    </Link>
  );
}

export default function TableOfContents({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [reversed, setReversed] = useState(false);
  const ordered = <T,>(list: T[]) => (reversed ? [...list].reverse() : list);
  const marks = useMarks(loaderData.marks);
  const next = continueTarget(marks, loaderData.readable);
  const { pathname } = useLocation();
  const site = useSiteFacts();
  // The book and the released chapters this page lists (/chapters is the same page as /toc).
  const parts = loaderData.volumes.flatMap((volume) =>
    (volume.chapters ?? [])
      .filter((chapter) => chapter.status !== "locked" && chapter.status !== "early")
      .map((chapter) => ({
        name: chapter.title,
        position: chapter.number,
        url: `${site.origin}/chapter/${chapter.number}`,
      })),
  );
  const share = {
    description: loaderData.synopsis,
    path: loaderData.path,
    type: "book" as const,
    jsonLd: {
      "@context": "https://schema.org",
      ...book({
        name: site.name,
        author: loaderData.author,
        url: `${site.origin}/`,
        language: site.language,
        description: loaderData.synopsis,
        parts,
      }),
    },
  };
  return (
    <Page
      title={t("toc.heading")}
      name={t("toc.title")}
      intro={loaderData.synopsis}
      width="max-w-3xl"
      share={share}
    >
      <div className="mb-6 flex flex-wrap justify-between gap-3">
        {next ? (
          <Link to={`/chapter/${next}`} className={buttonClass("primary")}>
            {t("toc.continue", { number: next })}
          </Link>
        ) : (
          <span />
        )}
        <button
          type="button"
          className={buttonClass("outline")}
          aria-pressed={reversed}
          onClick={() => setReversed((value) => !value)}
        >
          {t("toc.reverseOrder")}
        </button>
      </div>
      <Totals totals={loaderData.totals} />
      <div className="mb-8">
        <NotifyButton on={loaderData.notify} returnTo={pathname} />
      </div>
      <EpubDownload signedIn={loaderData.signedIn} />
      <div className="flex flex-col gap-10">
        {ordered(loaderData.volumes).map((volume) => (
          <section
            key={volume.number}
            id={`volume-${volume.number}`}
            aria-labelledby={`volume-${volume.number}-title`}
            className="scroll-mt-20"
          >
            <h2 id={`volume-${volume.number}-title`} className="mb-1 font-display text-2xl text-primary">
              {t("reader.volumeTitle", { number: volume.number, title: volume.title })}
            </h2>
            <p className="mb-2 text-muted">{volume.summaryMd}</p>
            <p className="mb-4">
              <a
                href={`/epub/volume/${volume.number}`}
                download
                className="text-sm text-primary underline underline-offset-2"
                data-testid="epub-volume"
              >
                {t("toc.epubVolume", { number: volume.number })}
              </a>
            </p>
            {loaderData.signedIn ? <UnlockVolume volume={volume} /> : null}
            {volume.chapters ? (
              // Volumes out of view are laid out only when scrolled near; the estimate of a row's height keeps
              // the scroll bar steady meanwhile.
              <ol
                className="flex flex-col gap-2 [content-visibility:auto]"
                style={{ containIntrinsicBlockSize: `auto ${volume.chapters.length * 82}px` }}
              >
                {ordered(volume.chapters).map((chapter) => (
                  <li key={chapter.number}>
                    <ChapterRow
                      chapter={chapter}
                      mark={marks[chapter.number]}
                      comments={loaderData.comments[chapter.number]}
                      now={loaderData.now}
                    />
                  </li>
                ))}
              </ol>
            ) : (
              <ClosedVolume volume={volume} />
            )}
          </section>
        ))}
      </div>
    </Page>
  );
}
