import { Suspense } from "react";
import { data, redirect, type ShouldRevalidateFunction } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { movedChapterNumber } from "~/features/chapters/catalog.server";
import { CommentsSlot } from "~/features/comments/slot";
import { loadChapterForReader, previewAudiences } from "~/features/reader/access.server";
import { unlockOnArrival } from "~/features/reader/arrival.server";
import { ChapterMeta } from "~/features/reader/chapter-meta";
import { ChapterPage } from "~/features/reader/chapter-page";
import { buyAndUnlock, purchaseContext } from "~/features/reader/purchase.server";
import { chapterShare } from "~/features/reader/share.server";
import { mayShareChapterPage } from "~/features/reader/sharing";
import { unlockFromPage } from "~/features/reader/unlock.server";
import { SIDE_BY_SIDE_COOKIE } from "~/features/reading-settings/side-by-side-cookie";
import { newChapterEmailsOn } from "~/features/release-mails/subscription.server";
import { releaseTime } from "~/lib/clock.server";
import { readForm } from "~/lib/forms";
import { OFFLINE_HEADER, offlineHeaders } from "~/lib/offline";
import { parseId } from "~/lib/parse";
import { getPreferences, readCookies } from "~/lib/preferences.server";
import { shareableIf, shareableIfLoaderSays } from "~/lib/shareable";
import { lazyComponent } from "~/ui/lazy-component";
import type { Route } from "./+types/chapter";

// Fetched only by a locked chapter's page, with its locked view: an open chapter downloads neither.
const NotifyButton = lazyComponent(() => import("~/features/release-mails/notify-button"), "NotifyButton");
// An author's preview only: a reader's page neither shows nor downloads it. Nor the page of a missing chapter.
const PreviewBanner = lazyComponent(() => import("~/features/reader/preview"), "PreviewBanner");
const ChapterNotFound = lazyComponent(() => import("~/features/reader/chapter-not-found"), "ChapterNotFound");

/**
 * The reader's side-by-side setting (ADR 97): a signed-in reader's saved one, a visitor's cookie. The page
 * cache keys the page by the same (app/features/page-cache/viewer.server.ts).
 */
function sideBySideOf(request: Request, user: { readingSettings: { sideBySide: string } } | undefined) {
  return user
    ? user.readingSettings.sideBySide === "on"
    : readCookies(request).get(SIDE_BY_SIDE_COOKIE) === "on";
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const number = parseId(params.id);
  const user = await getSessionUser(request);
  const as = new URL(request.url).searchParams.get("as");
  const previewAs = previewAudiences.find((audience) => audience === as);
  const { language } = getPreferences(request);
  const sideBySide = sideBySideOf(request, user);
  let chapter =
    number === undefined
      ? undefined
      : await loadChapterForReader(number, user, releaseTime(), previewAs, language, sideBySide);
  if (!chapter) {
    const moved = number === undefined ? undefined : await movedChapterNumber(number);
    if (moved !== undefined) throw redirect(`/chapter/${moved}${new URL(request.url).search}`);
    throw data({ chapterNotFound: true }, { status: 404 });
  }
  // Reaching a coin-locked chapter unlocks it when the reader turned automatic unlocking on (ADR 90).
  if (
    chapter.lock?.kind === "coins" &&
    user &&
    !chapter.preview &&
    (await unlockOnArrival(request, user, chapter.number, chapter.lock, releaseTime(), context))
  )
    chapter =
      (await loadChapterForReader(chapter.number, user, releaseTime(), undefined, language, sideBySide)) ??
      chapter;
  if (chapter.lock?.kind === "coins" && user && !chapter.preview)
    Object.assign(
      chapter.lock,
      await purchaseContext(chapter.lock, user.id, new URL(request.url).searchParams),
    );
  // A page load carries the text once, in the HTML; route data for client navigations carries it itself.
  if (context.documentRequest && chapter.html !== undefined) {
    context.documentOnly.chapterHtml = chapter.html;
    delete chapter.html;
  }
  // What search engines and previews read, decided as for a visitor (ADR 46): written by the server render
  // of a page load only (a client navigation writes no tags), so the route data carries none of it.
  if (context.documentRequest) {
    const facts = await chapterShare(chapter.number, releaseTime());
    if (facts) {
      const { summary, ...share } = facts;
      if (summary !== undefined) context.documentOnly.chapterSummary = summary;
      context.documentOnly.chapterShare = JSON.stringify(share);
    }
  }
  const shared = mayShareChapterPage(user, chapter.lock);
  // An author's preview shows the page as its audience sees it (a visitor is signed out); never kept.
  const signedIn = chapter.preview ? chapter.preview.as !== "visitor" : Boolean(user);
  // "Notify me" on a coin-locked chapter: that page is the reader's own (never kept), so it may say their choice.
  // A chapter waiting for its release is shared by the readers waiting for it: the button asks for it itself.
  const notify =
    chapter.lock?.kind === "coins" && user && !chapter.preview
      ? await newChapterEmailsOn(user.id)
      : undefined;
  return data(
    { chapter, signedIn, ...(notify === undefined ? {} : { notify }) },
    // Only a chapter waiting for its release shows a date (when): every other chapter page is one in every zone.
    // A chapter this reader may read may be kept on their device for reading offline (ADR 96); a locked one's
    // page or a preview never is.
    {
      headers: {
        ...shareableIf(shared, { timeless: chapter.lock?.kind !== "release" }),
        ...offlineHeaders(!chapter.lock && !chapter.preview, chapter.next),
      },
    },
  );
}

export const headers: Route.HeadersFunction = (args) => {
  const headers = new Headers(shareableIfLoaderSays(args));
  const offline = args.loaderHeaders.get(OFFLINE_HEADER);
  if (offline) headers.set(OFFLINE_HEADER, offline);
  return headers;
};

/** A comment, a heart or a report changes nothing of the chapter: its text is not loaded again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.endsWith("/comments") ? false : defaultShouldRevalidate;

export async function action({ request, params, context }: Route.ActionArgs) {
  const number = parseId(params.id);
  const user = await getSessionUser(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if ((intent !== "unlock" && intent !== "buy-unlock") || number === undefined)
    return data({ error: "reader.unlock.failed" }, { status: 400 });
  if (!user) return data({ error: "reader.unlock.signIn" }, { status: 401 });
  if (intent === "buy-unlock") {
    const bought = await buyAndUnlock(user, number, form.get("packKey"), context.ip);
    return "url" in bought ? redirect(bought.url) : data({ error: bought.error }, { status: bought.status });
  }
  const { status, body } = await unlockFromPage(user, number, context);
  return data(body, { status });
}

export default function Chapter({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  const { chapter } = loaderData;
  return (
    <>
      {/* The chapter's name alone: the site's would add to every chapter page's head (see DocumentTitle). */}
      <title>{`${chapter.number}. ${chapter.title}`}</title>
      <ChapterMeta number={chapter.number} title={chapter.title} />
      {/* No boundary of its own: a preview's page waits for it (and costs a reader's page no bytes). */}
      {chapter.preview && <PreviewBanner {...chapter.preview} />}
      <ChapterPage
        chapter={chapter}
        signedIn={loaderData.signedIn}
        error={error}
        // An author's preview shows the chapter as its audience would, without the live thread.
        comments={chapter.preview ? undefined : <CommentsSlot chapter={chapter.number} />}
        lockedExtra={
          chapter.lock ? (
            <NotifyButton
              signedIn={loaderData.signedIn}
              on={loaderData.notify}
              returnTo={`/chapter/${chapter.number}`}
            />
          ) : undefined
        }
      />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if ((error as { status?: number })?.status !== 404) throw error;
  return (
    <Suspense fallback={null}>
      <ChapterNotFound />
    </Suspense>
  );
}
