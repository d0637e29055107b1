import { Suspense, useRef } from "react";
import { data, type LinkProps, redirect, useNavigation } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { loadChapterForReader } from "~/features/reader/access.server";
import { Artwork } from "~/features/reader/artwork";
import { ChapterBody } from "~/features/reader/chapter-body";
import { buyAndUnlock, purchaseContext } from "~/features/reader/purchase.server";
import { useChapterReader } from "~/features/reader/use-chapter-reader";
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

export default function Chapter({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const { chapter, signedIn } = loaderData;
  const articleRef = useRef<HTMLElement>(null);
  const sheet = useLazyDialog(loadSettingsSheet);
  const { settings, applySettings, progress, toggleBookmark, currentParagraph, hint, jump } =
    useChapterReader({
      chapter: {
        number: chapter.number,
        next: chapter.next,
        previous: chapter.previous,
        locked: !!chapter.lock,
      },
      signedIn,
      articleRef,
      dialogOpen: sheet.open,
    });

  const loadingChapter =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/chapter/");
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
