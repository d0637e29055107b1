import "~/i18n/full-catalogue";
import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { DraftNotices } from "~/features/admin/draft-notices";
import { MarkdownEditor } from "~/features/admin/editor/markdown-editor";
import { NoteField } from "~/features/admin/note-field";
import { RevisionList, TextDiffView } from "~/features/admin/revision-history";
import { rowIdParam } from "~/features/admin/route-params";
import { useAutosave } from "~/features/admin/use-autosave";
import type { Actor } from "~/features/audit/log.server";
import { requireAuthor } from "~/features/auth/guards.server";
import { CHAPTER_LIMITS } from "~/features/chapters/chapter-form";
import {
  getDraft,
  getRevision,
  listRevisions,
  revisionDiff,
} from "~/features/content/chapter-editing.server";
import {
  getChapterTranslationForEdit,
  saveChapterTranslation,
} from "~/features/content/translation-editing.server";
import {
  chapterTranslationSchema,
  TRANSLATED_TITLE_MAX,
  translationDraftKey,
} from "~/features/content/translation-form";
import { refreshContentRevision } from "~/features/site/revision.server";
import { isTranslationLanguage } from "~/features/translations/languages";
import { languageNames } from "~/i18n/config";
import { useTranslation } from "~/i18n/react";
import { echoedValue, parseForm, readForm, wholeNumber } from "~/lib/forms";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice, TextAreaField } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/chapter-translation";

const versionNumber = wholeNumber(1, 2_147_483_647);

/** The chapter and language the address names (else 404). */
function placeOf(params: { id: string; lang: string }) {
  const id = rowIdParam(params.id) as number;
  if (!isTranslationLanguage(params.lang)) throw data(null, { status: 404 });
  return { id, language: params.lang };
}

/** A chapter's translation beside its original (read only), with its history and the author's kept draft. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  const { id, language } = placeOf(params);
  const [edit, draft, revisions] = await Promise.all([
    getChapterTranslationForEdit(id, language),
    getDraft(author.id, translationDraftKey(id, language)),
    listRevisions(id, language),
  ]);
  if (!edit) throw data(null, { status: 404 });
  const { original, translation, stale } = edit;
  // `?compare=N`: what changed from version N to the current translation.
  const compare = versionNumber.safeParse(new URL(request.url).searchParams.get("compare"));
  const older = compare.success && translation ? await getRevision(id, compare.data, language) : undefined;
  return {
    id,
    language,
    original: {
      number: original.number,
      title: original.title,
      bodyMd: original.bodyMd,
      noteBefore: original.noteBefore,
      noteAfter: original.noteAfter,
    },
    values: {
      title: translation?.title ?? "",
      bodyMd: translation?.bodyMd ?? "",
      noteBefore: translation?.noteBefore ?? "",
      noteAfter: translation?.noteAfter ?? "",
    },
    version: translation?.version,
    mark: translation ? (stale ? "stale" : "current") : "missing",
    revisions: revisions.slice(0, 20),
    diff: older && translation ? revisionDiff(older, translation) : undefined,
    savedVersion: /^\d{1,10}$/.exec(new URL(request.url).searchParams.get("saved") ?? "")?.[0],
    // An autosaved text newer than the last save is offered back.
    draft: draft && (!translation || draft.savedAt > translation.updatedAt.toISOString()) ? draft : undefined,
  };
}

type ActionResult = {
  errors?: Record<string, string>;
  /** Why a version was not restored (a message key). */
  refused?: string;
  values?: { title: string; bodyMd: string; noteBefore: string; noteAfter: string };
  conflict?: { version: number; title: string; bodyMd: string } | { version: undefined };
};

const restoreSchema = z.object({ restore: versionNumber, version: versionNumber });

/**
 * Restores an earlier version as a new one, made from the version the page showed (as the original's): its
 * title, text and notes (ADR 100; a version whose notes are not known leaves them as they are).
 */
async function restoreAction(
  id: number,
  language: ReturnType<typeof placeOf>["language"],
  form: FormData,
  actor: Actor & { via: "admin" },
) {
  const parsed = parseForm(restoreSchema, form);
  const revision = parsed.ok ? await getRevision(id, parsed.data.restore, language) : undefined;
  if (!parsed.ok || !revision) return data<ActionResult>({ refused: "admin.revisions.unknown" }, 400);
  const { title, bodyMd, notes } = revision;
  const saved = await saveChapterTranslation(
    id,
    language,
    { title, bodyMd, ...(notes ? { noteBefore: notes.before, noteAfter: notes.after } : {}) },
    parsed.data.version,
    actor,
  );
  if (!saved.ok) return data<ActionResult>({ refused: "admin.revisions.conflict" }, 409);
  await refreshContentRevision();
  return redirect(`/admin/chapters/${id}/translations/${language}?saved=${saved.version}`);
}

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const { id, language } = placeOf(params);
  const form = await readForm(request);
  const actor = { via: "admin", userId: author.id } as const;
  if (form.get("intent") === "restore") return restoreAction(id, language, form, actor);
  // Echoed back on a refusal, capped, so nothing typed is lost.
  const values = {
    title: echoedValue(form, "title"),
    bodyMd: echoedValue(form, "bodyMd", 410_000),
    noteBefore: echoedValue(form, "noteBefore", CHAPTER_LIMITS.note + 100),
    noteAfter: echoedValue(form, "noteAfter", CHAPTER_LIMITS.note + 100),
  };
  const parsed = parseForm(chapterTranslationSchema, form);
  if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, values }, 400);
  const { version, ...input } = parsed.data;
  const saved = await saveChapterTranslation(id, language, input, version ?? null, actor);
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`/admin/chapters/${id}/translations/${language}?saved=${saved.version}`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  return data<ActionResult>({ conflict: saved.current ?? { version: undefined }, values }, 409);
}

export default function ChapterTranslationEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const result = actionData as ActionResult | undefined;
  const { id, language, original, revisions } = loaderData;
  const [restored, setRestored] = useState<{ title: string; bodyMd: string }>();
  // A draft restored holds the title and text (autosave keeps those): the notes stay as the page has them.
  const values = restored ? { ...loaderData.values, ...restored } : (result?.values ?? loaderData.values);
  // After a conflict the next save is made knowingly from the version now current.
  const version = result?.conflict ? result.conflict.version : loaderData.version;
  const autosave = useAutosave({ key: translationDraftKey(id, language), baseVersion: version ?? null });
  const title = t("admin.translation.title", { number: original.number, language: languageNames[language] });
  const errors = result?.errors ?? {};
  const conflict = result?.conflict;
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        <Link to={`/admin/chapters/${id}`} className="underline">
          {t("admin.translation.back")}
        </Link>
      </div>
      <p data-testid="translation-mark" className="text-sm">
        {t(`admin.translations.marks.${loaderData.mark}`)}
      </p>
      {loaderData.savedVersion && !result ? (
        <FormNotice>{t("admin.chapter.saved", { version: loaderData.savedVersion })}</FormNotice>
      ) : null}
      {conflict ? (
        <FormAlert>{t("admin.translation.conflict", { version: conflict.version ?? 0 })}</FormAlert>
      ) : null}
      <DraftNotices
        sessionEnded={autosave.sessionEnded}
        draft={loaderData.draft}
        offerDraft={!result && !restored}
        onRestore={() => setRestored(loaderData.draft)}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="original-title" className="flex min-w-0 flex-col gap-3">
          <h2 id="original-title" className="font-display text-xl text-primary">
            {t("admin.translation.original")}
          </h2>
          <p className="font-semibold" lang="en" data-testid="original-title">
            {original.title}
          </p>
          <pre
            lang="en"
            // The original scrolls and holds no control: focusable, so a keyboard can scroll it.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by the keyboard
            tabIndex={0}
            className="max-h-[70vh] overflow-auto whitespace-pre-wrap rounded-md border border-line p-3 font-sans text-base"
          >
            {original.bodyMd}
          </pre>
          <OriginalNote place="before" text={original.noteBefore} />
          <OriginalNote place="after" text={original.noteAfter} />
        </section>
        <Form
          method="post"
          ref={autosave.formRef}
          onSubmit={autosave.beforeSave}
          className="flex min-w-0 flex-col gap-5"
          aria-busy={navigation.state === "submitting"}
          key={`${version ?? "new"}-${conflict ? "conflict" : ""}-${restored ? "restored" : ""}`}
        >
          <h2 className="font-display text-xl text-primary">
            {t("admin.translation.translation", { language: languageNames[language] })}
          </h2>
          {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
          <Field
            name="title"
            label={t("admin.chapter.title")}
            defaultValue={values.title}
            maxLength={TRANSLATED_TITLE_MAX}
            required
            error={errors.title}
          />
          <MarkdownEditor
            name="bodyMd"
            label={t("admin.chapter.body")}
            defaultValue={values.bodyMd}
            error={errors.bodyMd ?? errors.version}
            previewBeside={false}
          />
          <NoteField
            name="noteBefore"
            value={values.noteBefore}
            error={errors.noteBefore}
            hint="admin.translation.noteHint"
          />
          <NoteField
            name="noteAfter"
            value={values.noteAfter}
            error={errors.noteAfter}
            hint="admin.translation.noteHint"
          />
          {conflict && "title" in conflict ? (
            <TextAreaField
              name="theirs"
              label={t("admin.chapter.theirText", { version: conflict.version })}
              defaultValue={conflict.bodyMd}
              readOnly
              rows={10}
            />
          ) : null}
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" className={buttonClass("primary")}>
              {t("admin.chapter.save")}
            </button>
            <span role="status" className="text-sm text-muted" data-testid="autosave-status">
              {autosave.savedAt
                ? t("admin.chapter.autosaved", { at: format.date(autosave.savedAt, { timeStyle: "medium" }) })
                : ""}
            </span>
          </div>
        </Form>
      </div>
      {revisions.length ? (
        <section aria-labelledby="history-title" className="flex flex-col gap-2">
          <h2 id="history-title" className="font-display text-xl text-primary">
            {t("admin.chapter.revisions")}
          </h2>
          <RevisionList
            revisions={revisions}
            current={loaderData.version}
            compareHref={(version) =>
              `/admin/chapters/${id}/translations/${language}?compare=${version}#diff-title`
            }
          />
        </section>
      ) : null}
      {loaderData.diff && loaderData.version !== undefined ? (
        <TextDiffView
          from={loaderData.diff.version}
          to={loaderData.version}
          parts={loaderData.diff.parts}
          notes={loaderData.diff.notes}
        />
      ) : null}
    </>
  );
}

/** The original's author's note (read only, in English), beside the translation's (ADR 100). */
function OriginalNote({ place, text }: { place: "before" | "after"; text: string | null }) {
  const { t } = useTranslation();
  if (!text) return null;
  const id = `original-note-${place}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-1">
      <h3 id={id} className="font-semibold">
        {t(
          place === "before" ? "admin.translation.originalNoteBefore" : "admin.translation.originalNoteAfter",
        )}
      </h3>
      <pre
        lang="en"
        // A note may scroll: focusable, so a keyboard can scroll it (as the original's text).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by the keyboard
        tabIndex={0}
        data-testid={id}
        className="max-h-60 overflow-auto whitespace-pre-wrap rounded-md border border-line p-3 font-sans text-base"
      >
        {text}
      </pre>
    </section>
  );
}

/** The translation's own author's note: Markdown, optional (blank: readers see the original's, in English). */
