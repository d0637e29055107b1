import { releaseTime } from "~/lib/clock.server";
import "~/i18n/full-catalogue";
import { memo, startTransition, useEffect, useState } from "react";
import { data, redirect, useLocation, useNavigate } from "react-router";
import { getKeptSessionUser, type KeptSessionUser } from "~/features/auth/session.server";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import type { TocChapter } from "~/features/chapters/queries.server";
import { getTableOfContents } from "~/features/chapters/queries.server";
import { ChapterStatusBadge } from "~/features/chapters/status-badge";
import { unlockedChapterNumbers } from "~/features/coins/queries.server";
import { commentCounts } from "~/features/comments/queries.server";
import { readsAheadOf } from "~/features/reader/access.server";
import { loadAccountMarks } from "~/features/reader/account-progress";
import { continueTarget, type ProgressMark, toMarks } from "~/features/reader/continue";
import { latestRead } from "~/features/reader/queries.server";
import { loadAllStoredProgress } from "~/features/reader/storage";
import { NotifyButton } from "~/features/release-mails/notify-button";
import { getSiteSettings } from "~/features/site/queries.server";
import { opensReadersVolume, type TocPageVolume, tocPage } from "~/features/toc/page";
import { chapterJump, SEARCH_MAX, searchText, titleMatcher } from "~/features/toc/search";
import { tocIn } from "~/features/toc/translated.server";
import { useTranslation } from "~/i18n/react";
import { getPreferences } from "~/lib/preferences.server";
import { shareableIf, shareableIfLoaderSays } from "~/lib/shareable";
import { book } from "~/lib/structured-data";
import { buttonClass } from "~/ui/button";
import { SentenceWith } from "~/ui/in-language";
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
  // The search by title and the jump to a chapter, for a browser without JavaScript (ADR 92).
  const query = new URL(request.url).searchParams;
  const search = searchText(query.get("q"));
  const jump = chapterJump(query.get("chapter"));
  // The kept session (ADR 49): the tier and unlocks the page cache names this page's group by (ADR 101).
  const user = await getKeptSessionUser(request);
  const now = releaseTime();
  // A signed-in reader's table is kept for every reader with the same access (ADR 101): their read-ahead and
  // unlocks show; their progress and e-mail choice are fetched by the parts that show them. On a long serial
  // the volume they would continue in opens, from the chapter they read last (the viewer check keys on it).
  const [toc, site, latest, comments] = await Promise.all([
    user
      ? Promise.all([readsAheadOf(user.id, now, user.membershipTier), unlockedNumbers(user)]).then(
          ([ahead, unlocked]) => getTableOfContents(now, ahead, unlocked),
        )
      : getTableOfContents(now),
    getSiteSettings(),
    user && requested === undefined ? readerLatest(user.id) : undefined,
    commentCounts(),
  ]);
  // The titles, summaries and synopsis in the page's language where translated (ADR 86).
  const { volumes, synopsis, synopsisLang } = await tocIn(
    toc,
    site.synopsis,
    getPreferences(request).language,
  );
  if (requested !== undefined && !volumes.some((volume) => volume.number === requested))
    throw data(null, { status: 404 });
  const page = tocPage(volumes, {
    requested,
    marks: latest ? { [latest.number]: latest.mark } : undefined,
    search,
  });
  const path = requested === undefined ? "/toc" : `/toc/volume/${requested}`;
  if (jump && "number" in jump) {
    const volume = page.volumes.find(
      (v) => v.chapterCount && v.first <= jump.number && jump.number <= v.last,
    );
    if (volume)
      throw redirect(`${volume.chapters ? path : `/toc/volume/${volume.number}`}#chapter-${jump.number}`);
  }
  // Marks come after the page shows, a visitor's from browser storage, a signed-in reader's from their account.
  return data(
    {
      ...page,
      synopsis,
      ...(synopsisLang ? { synopsisLang } : {}),
      author: site.author,
      path,
      search,
      jump,
      comments,
      // A signed-in reader's own table offers to unlock a volume's locked chapters at once (ADR 90), and the
      // EPUB links say whose copy it is (a visitor's holds the free chapters).
      signedIn: Boolean(user),
      // The release time of the render: an upcoming chapter's words (a date, or today's time) are chosen by it.
      now: now.toISOString(),
    },
    { headers: shareableIf((!user || user.role === "reader") && !search && !jump) },
  );
}

export const headers = shareableIfLoaderSays;

/** The numbers of the chapters the reader unlocked: from the kept session's ids where it holds them. */
async function unlockedNumbers(user: KeptSessionUser): Promise<Set<number>> {
  const ids = user.unlockedChapterIds;
  if (!ids) return unlockedChapterNumbers(user.id);
  const { published } = await getChapterCatalog();
  return new Set(published.filter((chapter) => ids.has(chapter.id)).map((chapter) => chapter.number));
}

/** The chapter the reader read last, where the table opens the volume they would continue in (a long serial). */
async function readerLatest(userId: number) {
  return opensReadersVolume((await getChapterCatalog()).published.length) ? latestRead(userId) : undefined;
}

/**
 * The reader's marks, after hydration: a signed-in reader's from their account (the page is kept for every
 * reader with the same access: ADR 101), a visitor's from this browser's storage; asked again whenever the
 * page's data is (`pageData`: a revalidation after a choice). Applying them is a transition (the browser stays
 * responsive) that re-renders only the rows whose mark changed (`ChapterRow` is memoised): a table of 1,000
 * chapters is 11,000 elements.
 */
function useMarks(signedIn: boolean, pageData: unknown) {
  const [marks, setMarks] = useState<Record<number, ProgressMark>>({});
  useEffect(() => {
    void pageData;
    if (!signedIn) {
      startTransition(() => setMarks(toMarks(loadAllStoredProgress())));
      return;
    }
    let live = true;
    void loadAccountMarks().then((account) => {
      if (live && account) startTransition(() => setMarks(account));
    });
    return () => {
      live = false;
    };
  }, [signedIn, pageData]);
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
        <span className="font-display text-lg" lang={chapter.lang}>
          {chapter.title}
        </span>
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

const fieldClass =
  "min-h-11 min-w-0 flex-1 rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink";

/**
 * One of the table of contents' two GET forms: a label above a field (`children`, whose id is `inputId`) and
 * its button, with room below for a message. It works without JavaScript; `onSubmit` answers in place.
 */
function TocForm({
  path,
  inputId,
  label,
  button,
  onSubmit,
  className,
  children,
  after,
}: {
  path: string;
  inputId: string;
  label: string;
  button: string;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  className: string;
  children: React.ReactNode;
  after?: React.ReactNode;
}) {
  return (
    <form
      method="get"
      action={path}
      onSubmit={onSubmit}
      className={`flex min-w-0 flex-col gap-1 ${className}`}
    >
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <span className="flex gap-2">
        {children}
        <button type="submit" className={buttonClass("outline")}>
          {button}
        </button>
      </span>
      {after}
    </form>
  );
}

export default function TableOfContents({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [reversed, setReversed] = useState(false);
  const ordered = <T,>(list: T[]) => (reversed ? [...list].reverse() : list);
  const marks = useMarks(loaderData.signedIn, loaderData);
  const next = continueTarget(marks, loaderData.readable);
  const { pathname } = useLocation();
  const site = useSiteFacts();
  const navigate = useNavigate();
  const [search, setSearch] = useState(loaderData.search);
  const [jump, setJump] = useState(loaderData.jump);
  const [focus, setFocus] = useState<{ number: number }>();
  useEffect(() => {
    setSearch(loaderData.search);
    setJump(loaderData.jump);
  }, [loaderData.search, loaderData.jump]);
  useEffect(() => {
    const row = focus && document.getElementById(`chapter-${focus.number}`);
    row?.scrollIntoView({ block: "center" });
    row?.focus({ preventScroll: true });
  }, [focus]);
  // The rows the search finds, in their volumes; a closed volume's rows are not here to search (ADR 37), so
  // while searching it is hidden, and the form's submit asks the server, which opens those with a match.
  const searching = searchText(search) !== "";
  const matches = titleMatcher(search);
  const shown = loaderData.volumes.flatMap((volume) => {
    if (!searching) return [volume];
    const chapters = volume.chapters?.filter((chapter) => matches(chapter.title)) ?? [];
    return chapters.length ? [{ ...volume, chapters }] : [];
  });
  const found = shown.reduce((sum, volume) => sum + (volume.chapters?.length ?? 0), 0);
  const partial =
    searching &&
    searchText(search) !== loaderData.search &&
    loaderData.volumes.some((volume) => !volume.chapters);
  const last = Math.max(0, ...loaderData.volumes.map((volume) => volume.last));
  const onSearchSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!partial) return;
    navigate(`${loaderData.path}?${new URLSearchParams({ q: searchText(search) })}`, {
      preventScrollReset: true,
    });
  };
  const onJump = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const given = chapterJump(String(new FormData(event.currentTarget).get("chapter") ?? ""));
    const number = given && "number" in given ? given.number : -1;
    const volume = loaderData.volumes.find((v) => v.chapterCount && v.first <= number && number <= v.last);
    setJump(volume ? undefined : (given ?? { invalid: "" }));
    if (!volume) return;
    if (!volume.chapters) return navigate(`/toc/volume/${volume.number}#chapter-${number}`);
    if (!document.getElementById(`chapter-${number}`)) setSearch("");
    setFocus({ number });
  };
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
      intro={
        loaderData.synopsisLang ? (
          <span lang={loaderData.synopsisLang}>{loaderData.synopsis}</span>
        ) : (
          loaderData.synopsis
        )
      }
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
        <NotifyButton on={undefined} signedIn={loaderData.signedIn} returnTo={pathname} />
      </div>
      <EpubDownload signedIn={loaderData.signedIn} />
      <div className="mb-2 flex flex-wrap items-start gap-4">
        {/* The search by title (ADR 92): filters as the reader types; without JavaScript the server answers. */}
        <TocForm
          path={loaderData.path}
          inputId="toc-search"
          label={t("toc.searchLabel")}
          button={t("toc.searchButton")}
          onSubmit={onSearchSubmit}
          className="flex-[3_1_16rem]"
        >
          <input
            id="toc-search"
            type="search"
            name="q"
            maxLength={SEARCH_MAX}
            autoComplete="off"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className={fieldClass}
          />
        </TocForm>
        {/* The jump to a chapter number: to its row, or the reason there is none. */}
        <TocForm
          path={loaderData.path}
          inputId="toc-jump"
          label={t("toc.jumpLabel")}
          button={t("toc.jumpButton")}
          onSubmit={onJump}
          className="flex-[1_1_10rem]"
          after={
            <span
              id="toc-jump-message"
              aria-live="polite"
              className="text-sm text-[#c0392b] dark:text-[#ff8a7a]"
            >
              {jump
                ? "number" in jump
                  ? t("toc.noSuchChapter", { number: jump.number })
                  : t("toc.jumpInvalid", { last })
                : null}
            </span>
          }
        >
          <input
            id="toc-jump"
            type="text"
            name="chapter"
            inputMode="numeric"
            maxLength={12}
            autoComplete="off"
            defaultValue={jump && ("number" in jump ? jump.number : jump.invalid)}
            aria-invalid={jump ? true : undefined}
            aria-describedby="toc-jump-message"
            className={fieldClass}
          />
        </TocForm>
      </div>
      <p aria-live="polite" className="mb-6 min-h-6 text-sm text-muted" data-testid="toc-search-status">
        {searching
          ? found
            ? t("toc.matches", { count: found })
            : t("toc.noMatch", { search: searchText(search) })
          : null}
        {partial ? ` ${t("toc.searchEveryVolume")}` : null}
      </p>
      <div className="flex flex-col gap-10">
        {ordered(shown).map((volume) => (
          <section
            key={volume.number}
            id={`volume-${volume.number}`}
            aria-labelledby={`volume-${volume.number}-title`}
            className="scroll-mt-20"
          >
            <h2 id={`volume-${volume.number}-title`} className="mb-1 font-display text-2xl text-primary">
              <SentenceWith
                sentence={(title) => t("reader.volumeTitle", { number: volume.number, title })}
                value={volume.title}
                lang={volume.lang}
              />
            </h2>
            <p className="mb-2 text-muted" lang={volume.lang}>
              {volume.summaryMd}
            </p>
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
                  <li
                    key={chapter.number}
                    id={`chapter-${chapter.number}`}
                    tabIndex={-1}
                    className="scroll-mt-20 rounded-lg focus:outline-2 focus:outline-offset-2 focus:outline-primary target:outline-2 target:outline-offset-2 target:outline-primary"
                  >
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
