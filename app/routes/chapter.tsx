import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import { data, type LinkProps, redirect, useNavigate, useNavigation, useRouteLoaderData } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { loadChapterForReader } from "~/features/reader/access.server";
import { ChapterBody } from "~/features/reader/chapter-body";
import { type ChapterProgress, parseProgress } from "~/features/reader/progress";
import { buyAndUnlock, purchaseContext } from "~/features/reader/purchase.server";
import { loadStoredSettings, storeSettings } from "~/features/reader/storage";
import { useReadingProgress } from "~/features/reader/use-reading-progress";
import { useSwipe } from "~/features/reader/use-swipe";
import { defaultSettings, type ReadingSettings, showSettings } from "~/features/reading-settings/settings";
import { useTranslation } from "~/i18n/react";
import { logger } from "~/lib/logger.server";
import { parseId } from "~/lib/parse";
import { shareableIf, shareableIfLoaderSays } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { BookmarkIcon, ListIcon, SlidersIcon } from "~/ui/icons";
import { lazyComponent } from "~/ui/lazy-component";
import { useLazyDialog } from "~/ui/lazy-dialog";
import { Link } from "~/ui/link";
import { Spinner } from "~/ui/spinner";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/chapter";

// The settings sheet is fetched when first wanted (pointer over its button, focus, or a press), and the
// locked view only by a page that shows one: readers of a free chapter download neither.
const loadSettingsSheet = () => import("~/features/reader/settings-sheet");
const SettingsSheet = lazyComponent(loadSettingsSheet, "SettingsSheet");
const LockedView = lazyComponent(() => import("~/features/reader/locked-view"), "LockedView");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const number = parseId(params.id);
  const user = await getSessionUser(request);
  const chapter = number === undefined ? undefined : await loadChapterForReader(number, user);
  if (!chapter) throw data({ chapterNotFound: true }, { status: 404 });
  if (chapter.lock?.kind === "coins" && user)
    Object.assign(
      chapter.lock,
      await purchaseContext(chapter.lock, user.id, new URL(request.url).searchParams),
    );
  // A page load carries the text once, in the HTML; route data for client navigations carries it itself.
  if (context.documentRequest && chapter.html !== undefined) {
    context.documentOnly.chapterHtml = chapter.html;
    delete chapter.html;
  }
  // Nothing personal here (progress is fetched by the page), so every visitor, and every signed-in reader
  // who may read the chapter, gets the same page: the page cache renders it once for all of them.
  const shared = !user || (user.role === "reader" && !chapter.lock);
  return data({ chapter, signedIn: Boolean(user) }, { headers: shareableIf(shared) });
}

export const headers = shareableIfLoaderSays;

export async function action({ request, params, context }: Route.ActionArgs) {
  const number = parseId(params.id);
  const user = await getSessionUser(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if ((intent !== "unlock" && intent !== "buy-unlock") || number === undefined)
    return data({ error: "reader.unlock.failed" }, { status: 400 });
  if (!user) return data({ error: "reader.unlock.signIn" }, { status: 401 });
  if (intent === "buy-unlock") {
    const bought = await buyAndUnlock(user, number, form.get("packKey"), context.ip);
    return "url" in bought ? redirect(bought.url) : data({ error: bought.error }, { status: bought.status });
  }
  const result = await unlockChapter(user.id, number, new Date(), context);
  if (!result.ok) {
    logger.info(
      { userId: user.id, chapter: number, reason: result.reason, requestId: context.requestId },
      "unlock refused",
    );
    return data(
      {
        error: result.reason === "insufficient-coins" ? "reader.unlock.insufficient" : "reader.unlock.failed",
      },
      { status: 409 },
    );
  }
  // Only the request that unlocked the chapter succeeds; a repeat (another tab, a double click) changed
  // nothing and charged nothing: 409, and the page simply shows the text.
  if (!result.charged) return data({ alreadyUnlocked: true }, { status: 409 });
  return { unlocked: true };
}

export const meta: Route.MetaFunction = ({ data: loaderData }) =>
  loaderData && "chapter" in loaderData
    ? [{ title: `${loaderData.chapter.number}. ${loaderData.chapter.title}` }]
    : [];

/** A link to another chapter. It needs no route discovery (`discover`): this page's route shows it. */
function ChapterLink({ number, ...props }: Omit<LinkProps, "to" | "discover"> & { number: number }) {
  return <Link to={`/chapter/${number}`} discover="none" {...props} />;
}

/** The chapter's artwork for one side of the text, with captions. The first image before the text loads first. */
function Artwork({
  items,
  position,
}: {
  items: { url: string; position: string; caption: string }[];
  position: "before" | "after";
}) {
  return items
    .filter((art) => art.position === position)
    .map((art) => (
      <figure key={art.url} className={position === "before" ? "mb-8" : "mt-8"}>
        <img
          src={art.url}
          alt={art.caption}
          width={1200}
          height={600}
          className="w-full rounded-xl"
          {...(position === "before" ? { fetchPriority: "high" as const } : { loading: "lazy" as const })}
        />
        <figcaption className="mt-2 text-center text-sm text-muted italic">{art.caption}</figcaption>
      </figure>
    ));
}

/** A signed-in reader's progress in a chapter as the account has it (another device may be further on). */
async function loadAccountProgress(chapter: number): Promise<ChapterProgress | undefined> {
  try {
    const response = await fetch(`/reader/progress?chapter=${chapter}`, { cache: "no-store" });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { progress?: unknown };
    return parseProgress(body.progress);
  } catch {
    return undefined;
  }
}

/** Sends signed-in readers' progress to the server; returns false (to retry later) when it could not. */
async function sendProgress(chapter: number, progress: ChapterProgress): Promise<boolean> {
  const body = JSON.stringify({ entries: [{ chapter, progress }] });
  if (document.visibilityState === "hidden" && navigator.sendBeacon) {
    return navigator.sendBeacon("/reader/progress", new Blob([body], { type: "application/json" }));
  }
  try {
    const response = await fetch("/reader/progress", {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
      keepalive: true,
    });
    return response.ok;
  } catch {
    return false;
  }
}

export default function Chapter({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { chapter, signedIn } = loaderData;
  const articleRef = useRef<HTMLElement>(null);
  // Signed-in readers' settings come with the root loader (rendered on <html>); visitors' from storage.
  const root = useRouteLoaderData("root") as { readingSettings?: ReadingSettings | null } | undefined;
  const [settings, setSettings] = useState<ReadingSettings>(root?.readingSettings ?? defaultSettings);
  const sheet = useLazyDialog(loadSettingsSheet);

  useEffect(() => {
    if (!signedIn) setSettings(loadStoredSettings());
  }, [signedIn]);

  const applySettings = (next: ReadingSettings) => {
    setSettings(next);
    showSettings(next);
    storeSettings(next);
    if (signedIn) {
      const body = new URLSearchParams(Object.entries(next).map(([key, value]) => [key, String(value)]));
      void fetch("/reader/settings", { method: "POST", body }).catch(() => {});
    }
  };

  const onSave = useCallback(
    (progress: ChapterProgress) => sendProgress(chapter.number, progress),
    [chapter.number],
  );
  const { progress, toggleBookmark, currentParagraph } = useReadingProgress(chapter.number, articleRef, {
    loadAccountProgress: signedIn && !chapter.lock ? loadAccountProgress : undefined,
    onSave: signedIn && !chapter.lock ? onSave : undefined,
  });

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
    for (const block of articleRef.current?.querySelectorAll<HTMLElement>("[data-p]") ?? []) {
      block.toggleAttribute("data-bookmarked", marks.has(block.dataset.p ?? ""));
    }
  }, [progress.bookmarks]);

  const loadingChapter =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/chapter/");
  const jump = (paragraph: number) =>
    articleRef.current?.querySelector(`[data-p="${paragraph}"]`)?.scrollIntoView({ block: "start" });
  const bookmarked = new Set(progress.bookmarks);
  const error = actionData && "error" in actionData ? actionData.error : undefined;

  return (
    <>
      <header className="reader-header">
        <div className="reader-header-row">
          <div className="min-w-0">
            <p className="text-sm text-muted">
              {`${t("reader.chapterNumber", { number: chapter.number })} · ${t("reader.stats", { minutes: chapter.minutes, words: format.number(chapter.wordCount) })}`}
            </p>
            <h1 className="reader-title">{chapter.title}</h1>
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
      </header>

      <div className="reader-column">
        <p className="reader-volume">
          {t("reader.volumeTitle", { number: chapter.volume.number, title: chapter.volume.title })}
        </p>
        {error ? (
          <p role="alert" className="mb-6 rounded-md border border-[#b42318] px-4 py-3">
            {t(error)}
          </p>
        ) : null}
        {chapter.lock ? (
          <Suspense fallback={null}>
            <LockedView lock={chapter.lock} chapter={chapter.number} />
          </Suspense>
        ) : (
          <>
            <Artwork items={chapter.artwork} position="before" />
            <ChapterBody html={chapter.html} articleRef={articleRef} />
            <Artwork items={chapter.artwork} position="after" />
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
      </div>

      {hint ? (
        <p
          className="fixed inset-x-0 bottom-8 z-30 mx-auto w-fit rounded-full bg-primary px-5 py-2 text-on-primary shadow-lg"
          role="status"
        >
          {hint === "next" ? t("reader.swipeNext") : t("reader.swipePrevious")}
        </p>
      ) : null}
      {loadingChapter ? <Spinner fullScreen text={t("reader.loading")} /> : null}
      {chapter.lock || !sheet.mounted ? null : (
        <Suspense fallback={null}>
          <SettingsSheet
            open={sheet.open}
            onOpenChange={sheet.setOpen}
            settings={settings}
            onChange={applySettings}
            bookmarks={progress.bookmarks}
            onJump={jump}
          />
        </Suspense>
      )}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const notFound = (error as { status?: number })?.status === 404;
  if (!notFound) throw error;
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-6 px-6 text-center">
      <DocumentTitle name={t("reader.notFound")} />
      <h1 className="font-display text-3xl text-primary">{t("reader.notFound")}</h1>
      <Link to="/toc" className={buttonClass("primary")}>
        {t("notFound.toc")}
      </Link>
    </div>
  );
}
