import { type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { type LinkProps, useNavigate, useNavigation, useRevalidator, useRouteLoaderData } from "react-router";
import { defaultSettings, type ReadingSettings } from "~/features/reading-settings/settings";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { BookmarkIcon, LinkIcon, ListIcon, SlidersIcon } from "~/ui/icons";
import { lazyComponent } from "~/ui/lazy-component";
import { useLazyDialog } from "~/ui/lazy-dialog";
import { Link } from "~/ui/link";
import { Spinner } from "~/ui/spinner";
import { useFormat } from "~/ui/use-format";
import type { ChapterView } from "./access.server";
import { Artwork } from "./artwork";
import { blockAt, blocksOf } from "./blocks";
import { ChapterBody } from "./chapter-body";
import type { ChapterProgress } from "./progress";
import { loadStoredSettings } from "./storage";
import { useReadingProgress } from "./use-reading-progress";
import { useSwipe } from "./use-swipe";

// The settings sheet is fetched when first wanted (pointer over its button, focus, or a press), and the
// locked view only by a page that shows one: readers of a free chapter download neither.
const loadSettingsSheet = () => import("./settings-sheet");
const SettingsSheet = lazyComponent(loadSettingsSheet, "SettingsSheet");
const LockedView = lazyComponent(() => import("./locked-view"), "LockedView");
// Only a chapter with an author's note fetches the note's code; the server renders the note, which stays on
// the page as it came until the code is there (React keeps a suspended part's server HTML while hydrating).
const AuthorNote = lazyComponent(() => import("./author-note"), "AuthorNote");
// Only a page showing the original in another language fetches it.
const UntranslatedNote = lazyComponent(
  () => import("~/features/translations/untranslated-note"),
  "UntranslatedNote",
);
// Progress sent to the server: a signed-in reader's account, a visitor's anonymous counts (ADR 58).
const accountProgress = () => import("./account-progress");
const loadAccountMerge = (chapter: number) =>
  accountProgress().then((module) => module.loadAccountMerge(chapter));

/** A link to another chapter. It needs no route discovery (`discover`): this page's route shows it. */
function ChapterLink({ number, ...props }: Omit<LinkProps, "to" | "discover"> & { number: number }) {
  return <Link to={`/chapter/${number}`} discover="none" {...props} />;
}

/**
 * The chapter page: the text (or what locks it), the reader's tools, and the controller behind them:
 * reading settings, progress (browser storage, and the account for signed-in readers of an open chapter),
 * bookmark marks in the margin, and moving between chapters by key or swipe.
 */
export function ChapterPage({
  chapter,
  signedIn,
  error,
  comments,
  lockedExtra,
}: {
  chapter: ChapterView;
  signedIn: boolean;
  /** What follows an open chapter's pager: its comments (features/comments), given by the route. */
  comments?: ReactNode;
  /** Shown under a locked chapter's panel (the route's "Notify me", ADR 45). */
  lockedExtra?: ReactNode;
  /** A failed unlock's message key. */
  error?: string;
}) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const articleRef = useRef<HTMLElement>(null);
  // Signed-in readers' settings come with the root loader (rendered on <html>); visitors' from storage.
  const root = useRouteLoaderData("root") as { readingSettings?: ReadingSettings | null } | undefined;
  // A visitor's, on the client, from storage at once: only the sheet (not there at hydration) and effects read them.
  const [settings, setSettings] = useState<ReadingSettings>(
    () =>
      root?.readingSettings ??
      (signedIn || typeof window === "undefined" ? defaultSettings : loadStoredSettings()),
  );
  const sheet = useLazyDialog(loadSettingsSheet);

  useEffect(() => {
    if (!signedIn) setSettings(loadStoredSettings());
  }, [signedIn]);

  // Side by side with the original (ADR 97) changes the text itself: the server renders the pairs, so the
  // page's data is asked again once the server knows the choice (a reader's account; a visitor's cookie,
  // written here when the page does not follow the stored setting: just chosen, the cookie lost, or a copy
  // kept by a shared cache), keeping the reader at the paragraph they were reading.
  const keptPlace = useRef<number>(undefined);
  const showText = () => {
    keptPlace.current = currentParagraph();
    void revalidator.revalidate();
  };
  const translated = i18n.language !== "en" && !chapter.untranslated && !chapter.lock;
  const wantsPairs = translated && settings.sideBySide === "on";
  const mismatch = !signedIn && translated && wantsPairs !== Boolean(chapter.sideBySide);
  useEffect(() => {
    // Once per chapter and mismatch: a text that still does not follow (the server disagrees) stays as it came.
    if (mismatch)
      void import("~/features/reading-settings/side-by-side-cookie").then((cookie) => {
        cookie.storeSideBySideCookie(wantsPairs);
        showText();
      });
  }, [mismatch, chapter.number]);
  useEffect(() => {
    if (keptPlace.current === undefined) return;
    blockAt(articleRef.current, keptPlace.current)?.scrollIntoView({ block: "start" });
    keptPlace.current = undefined;
  }, [chapter.html]);

  // Achievements a progress write earned, announced in a live region that is always on the page, and
  // cleared after 10 s so that it does not stay over the pager.
  const [earned, setEarned] = useState<string[]>([]);
  const onSave = useCallback(
    (progress: ChapterProgress) =>
      accountProgress().then((module) =>
        module.sendProgress(chapter.number, progress, (messages) => {
          setEarned(messages);
          setTimeout(() => setEarned([]), 10_000);
        }),
      ),
    [chapter.number],
  );
  const { progress, toggleBookmark, currentParagraph } = useReadingProgress(chapter.number, articleRef, {
    loadAccountMerge: signedIn && !chapter.lock ? loadAccountMerge : undefined,
    // Not an author's preview as a visitor: the author's own reading is not a visitor's.
    onSave: !chapter.lock && chapter.preview?.as !== "visitor" ? onSave : undefined,
  });

  // "Copy link": the paragraph at the top of the view, as bookmarks take it, as `<origin>/chapter/N#p-K`;
  // announced in the live region, or, where the clipboard is refused, shown selected to copy by hand.
  const [linkToCopy, setLinkToCopy] = useState<string>();
  const copyLink = () => {
    const url = `${location.origin}/chapter/${chapter.number}#p-${currentParagraph()}`;
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(url))
      .then(
        () => {
          setLinkToCopy(undefined);
          setEarned([t("reader.linkCopied")]);
          setTimeout(() => setEarned([]), 4000);
        },
        () => setLinkToCopy(url),
      );
  };

  const goNext = chapter.next ? () => navigate(`/chapter/${chapter.next}`) : undefined;
  const goPrevious = chapter.previous ? () => navigate(`/chapter/${chapter.previous}`) : undefined;
  const keyNavigated = useRef<number | undefined>(undefined);
  const hint = useSwipe({ onNext: goNext, onPrevious: goPrevious });

  // Arrow keys and j (next) / k (previous) move between chapters on a keyboard (not while typing or with a dialog open).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || sheet.open) return;
      if (
        event.target instanceof HTMLElement &&
        event.target.closest("input, textarea, select, [contenteditable]")
      )
        return;
      // Between a navigation's URL change and its render this page is no longer the one shown.
      // One key, one chapter: keys pressed before the next chapter has rendered are ignored.
      if (
        keyNavigated.current === chapter.number ||
        window.location.pathname !== `/chapter/${chapter.number}`
      )
        return;
      const go =
        event.key === "ArrowRight" || event.key === "j"
          ? goNext
          : event.key === "ArrowLeft" || event.key === "k"
            ? goPrevious
            : undefined;
      if (!go) return;
      keyNavigated.current = chapter.number;
      go();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  // Bookmarked paragraphs carry a mark in the margin.
  useEffect(() => {
    const marks = new Set(progress.bookmarks.map(String));
    for (const [index, block] of blocksOf(articleRef.current).entries()) {
      block.toggleAttribute("data-bookmarked", marks.has(String(index)));
    }
  }, [progress.bookmarks]);

  const loadingChapter =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/chapter/");
  const jump = (paragraph: number) =>
    blockAt(articleRef.current, paragraph)?.scrollIntoView({ block: "start" });
  const bookmarked = new Set(progress.bookmarks);
  // The original's language on its blocks when the page is in another one (ADR 86).
  const original = chapter.untranslated ? "en" : undefined;
  // Each place's boundary is there with or without a note, so that moving to a chapter with one waits for
  // its code (a navigation keeps the page shown meanwhile) rather than showing the text first and the note after.
  const note = (place: "before" | "after") => (
    <Suspense fallback={null}>
      {chapter.notes?.[place] ? (
        <AuthorNote notes={chapter.notes} open={settings.authorNotes === "full"} place={place} />
      ) : null}
    </Suspense>
  );

  return (
    <>
      <header className="reader-header">
        <div className="reader-header-row">
          {/* Styled from app.css (.reader-header-row): no class names repeated in every chapter's bytes. */}
          <div>
            <p>
              {`${t("reader.chapterNumber", { number: chapter.number })} · ${t("reader.stats", { minutes: chapter.minutes, words: format.number(chapter.wordCount) })}`}
            </p>
            <h1 className="reader-title" lang={original}>
              {chapter.title}
            </h1>
          </div>
          <nav aria-label={t("reader.navigation")} className="reader-tools">
            {chapter.previous ? (
              <ChapterLink
                number={chapter.previous}
                className={buttonClass("tool")}
                aria-label={t("reader.previous")}
              >
                ←
              </ChapterLink>
            ) : null}
            <Link to="/toc" className={buttonClass("tool")}>
              <ListIcon />
              <span className="tool-label">{t("reader.toc")}</span>
            </Link>
            {chapter.next ? (
              <ChapterLink
                number={chapter.next}
                prefetch="render"
                className={buttonClass("tool")}
                aria-label={t("reader.next")}
              >
                →
              </ChapterLink>
            ) : null}
            {chapter.lock ? null : (
              <>
                <button
                  type="button"
                  className={buttonClass("tool")}
                  aria-pressed={bookmarked.has(progress.paragraph)}
                  onClick={() => toggleBookmark(currentParagraph())}
                >
                  <BookmarkIcon filled={bookmarked.has(progress.paragraph)} />
                  <span className="tool-label">{t("reader.bookmarks.toggle")}</span>
                </button>
                <button type="button" className={buttonClass("tool")} onClick={copyLink}>
                  <LinkIcon />
                  <span className="tool-label">{t("reader.copyLink")}</span>
                </button>
                <button type="button" className={buttonClass("tool")} {...sheet.triggerProps}>
                  <SlidersIcon />
                  <span className="tool-label">{t("reader.settings.open")}</span>
                </button>
              </>
            )}
          </nav>
        </div>
        {/* Over the header's bottom edge, once reading has begun: at 0 it would show nothing. */}
        {chapter.lock || !progress.completionPercentage ? null : (
          <div
            className="reader-progress"
            style={{ width: `${progress.completionPercentage}%` }}
            role="progressbar"
            aria-label={t("reader.progress")}
            aria-valuenow={progress.completionPercentage}
          />
        )}
        {linkToCopy ? (
          <input
            readOnly
            value={linkToCopy}
            aria-label={t("reader.copyLink")}
            className="reader-link-field"
            ref={(field) => {
              field?.focus();
              field?.select();
            }}
            onBlur={() => setLinkToCopy(undefined)}
          />
        ) : null}
      </header>

      <div className="reader-column">
        <p className="reader-volume">
          {t("reader.volumeTitle", { number: chapter.volume.number, title: chapter.volume.title })}
        </p>
        {chapter.untranslated ? (
          <Suspense fallback={null}>
            <UntranslatedNote path={`/chapter/${chapter.number}`} {...chapter.untranslated} />
          </Suspense>
        ) : null}
        {error ? (
          <p role="alert" className="mb-6 rounded-md border border-[#b42318] px-4 py-3">
            {t(error)}
          </p>
        ) : null}
        {chapter.lock ? (
          <Suspense fallback={null}>
            <LockedView lock={chapter.lock} chapter={chapter.number} volume={chapter.volume.number}>
              {lockedExtra}
            </LockedView>
          </Suspense>
        ) : (
          <>
            {note("before")}
            <Artwork items={chapter.artwork} position="before" lang={original} />
            <ChapterBody html={chapter.html} articleRef={articleRef} lang={original} />
            <Artwork items={chapter.artwork} position="after" lang={original} />
            {note("after")}
            {progress.completed ? (
              <p
                role="status"
                className="mt-10 rounded-xl border-2 border-primary px-6 py-4 text-center font-display text-xl text-primary"
              >
                {t("reader.complete")}
              </p>
            ) : null}
          </>
        )}
        {chapter.endsVolume && !chapter.lock ? (
          <p className="mt-10 text-center font-display text-lg" data-testid="volume-credits">
            {t("reader.volumeEnd", { number: chapter.volume.number })}{" "}
            <Link to="/credits" className="text-primary underline underline-offset-2">
              {t("reader.credits")}
            </Link>
          </p>
        ) : null}
        <nav aria-label={t("reader.navigation")} className="reader-pager">
          {chapter.previous ? (
            <ChapterLink number={chapter.previous} className={buttonClass("outline")}>
              {t("reader.previous")}
            </ChapterLink>
          ) : (
            <span />
          )}
          {chapter.next ? (
            <ChapterLink number={chapter.next} className={buttonClass("primary")}>
              {t("reader.next")}
            </ChapterLink>
          ) : null}
        </nav>
        {chapter.lock ? null : comments}
      </div>

      {hint ? (
        <p
          className="fixed inset-x-0 bottom-8 z-30 mx-auto w-fit rounded-full bg-primary px-5 py-2 text-on-primary shadow-lg"
          role="status"
        >
          {hint === "next" ? t("reader.swipeNext") : t("reader.swipePrevious")}
        </p>
      ) : null}
      <div role="status" className="toast">
        {earned.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      {loadingChapter ? <Spinner fullScreen text={t("reader.loading")} /> : null}
      {chapter.lock || !sheet.mounted ? null : (
        <Suspense fallback={null}>
          <SettingsSheet
            open={sheet.open}
            onOpenChange={sheet.setOpen}
            settings={settings}
            onChange={setSettings}
            signedIn={signedIn}
            onTextChange={translated ? showText : undefined}
            bookmarks={progress.bookmarks}
            onJump={jump}
          />
        </Suspense>
      )}
    </>
  );
}
