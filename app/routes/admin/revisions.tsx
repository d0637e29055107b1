import "~/i18n/full-catalogue";
import { data, redirect } from "react-router";
import { z } from "zod";
import { RevisionList, TextDiffView } from "~/features/admin/revision-history";
import { requireAuthor } from "~/features/auth/guards.server";
import {
  getChapterForEdit,
  getRevision,
  listRevisions,
  revisionDiff,
  saveChapter,
} from "~/features/content/chapter-editing.server";
import { refreshContentRevision } from "~/features/site/revision.server";
import { useTranslation } from "~/i18n/react";
import { parseForm, readForm, wholeNumber } from "~/lib/forms";
import { DocumentTitle } from "~/ui/document-title";
import { FormAlert } from "~/ui/form";
import { Link } from "~/ui/link";
import type { Route } from "./+types/revisions";

const versionNumber = wholeNumber(1, 2_147_483_647);

async function chapterOf(params: { id: string }) {
  const id = versionNumber.safeParse(params.id);
  const chapter = id.success ? await getChapterForEdit(id.data) : undefined;
  if (!chapter) throw data(null, { status: 404 });
  return chapter;
}

/** The history of a chapter; `?compare=N` shows what changed from version N to the current text. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAuthor(request);
  const chapter = await chapterOf(params);
  const compare = versionNumber.safeParse(new URL(request.url).searchParams.get("compare"));
  const older = compare.success ? await getRevision(chapter.id, compare.data) : undefined;
  return {
    chapter: { id: chapter.id, number: chapter.number, title: chapter.title, version: chapter.version },
    revisions: await listRevisions(chapter.id),
    diff: older ? revisionDiff(older, chapter) : undefined,
  };
}

const restoreSchema = z.object({ restore: versionNumber, version: versionNumber });

/**
 * Restores an earlier version as a new one (nothing in the history is lost): its title, text and notes (ADR
 * 100; a version whose notes are not known leaves them as they are), the rest of the chapter as it is now. Made from the version the page showed, so it is a conflict if someone saved since.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const chapter = await chapterOf(params);
  const parsed = parseForm(restoreSchema, await readForm(request));
  if (!parsed.ok) return data({ error: "admin.revisions.unknown" }, { status: 400 });
  const revision = await getRevision(chapter.id, parsed.data.restore);
  if (!revision) return data({ error: "admin.revisions.unknown" }, { status: 404 });
  const saved = await saveChapter(
    chapter.id,
    {
      title: revision.title,
      bodyMd: revision.bodyMd,
      ...(revision.notes ? { noteBefore: revision.notes.before, noteAfter: revision.notes.after } : {}),
      volume: chapter.volume,
      status: chapter.status,
      releaseAt: chapter.releaseAt,
      coinsRequired: chapter.coinsRequired,
      tags: chapter.tags,
      artwork: chapter.artwork,
    },
    parsed.data.version,
    { via: "admin", userId: author.id },
  );
  if (!saved.ok) return data({ error: "admin.revisions.conflict" }, { status: 409 });
  await refreshContentRevision();
  return redirect(`/admin/chapters/${chapter.id}?saved=${saved.version}`);
}

export default function ChapterRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { chapter, revisions, diff } = loaderData;
  const error = (actionData as { error?: string } | undefined)?.error;
  const title = t("admin.revisions.title", { number: chapter.number });
  return (
    <>
      <DocumentTitle name={title} />
      <h1 className="font-display text-3xl text-primary">{title}</h1>
      <Link to={`/admin/chapters/${chapter.id}`} className="underline">
        {t("admin.revisions.back")}
      </Link>
      {error ? <FormAlert>{t(error)}</FormAlert> : null}
      <RevisionList
        revisions={revisions}
        current={chapter.version}
        compareHref={(version) => `/admin/chapters/${chapter.id}/revisions?compare=${version}`}
      />
      {diff ? (
        <TextDiffView from={diff.version} to={chapter.version} parts={diff.parts} notes={diff.notes} />
      ) : null}
    </>
  );
}
