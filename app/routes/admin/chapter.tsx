import "~/i18n/full-catalogue";
import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { DraftNotices } from "~/features/admin/draft-notices";
import { MarkdownEditor } from "~/features/admin/editor/markdown-editor";
import { NoteField } from "~/features/admin/note-field";
import { rowIdParam } from "~/features/admin/route-params";
import { type EditorValues, useAutosave } from "~/features/admin/use-autosave";
import { requireAuthor } from "~/features/auth/guards.server";
import { BetaMarkForm } from "~/features/beta/mark-form";
import { betaState } from "~/features/beta/queries.server";
import { listVolumes } from "~/features/chapters/admin-list.server";
import { ArtworkFields } from "~/features/chapters/artwork-fields";
import {
  artworkSlots,
  artworkValues,
  CHAPTER_LIMITS,
  chapterSchema,
  moveSchema,
} from "~/features/chapters/chapter-form";
import { MoveChapterForm } from "~/features/chapters/move-chapter-form";
import {
  createChapter,
  deleteChapter,
  getChapterForEdit,
  getDraft,
  saveChapter,
} from "~/features/content/chapter-editing.server";
import { moveChapter } from "~/features/content/chapter-numbers.server";
import { chapterTranslationMarks } from "~/features/content/translation-editing.server";
import { TranslationsPanel } from "~/features/content/translations-panel";
import { refreshContentRevision } from "~/features/site/revision.server";
import { artworkChoices } from "~/features/uploads/author-uploads.server";
import { useTranslation } from "~/i18n/react";
import { releaseTime } from "~/lib/clock.server";
import { echoedValue, parseForm, readForm } from "~/lib/forms";
import { instantAt, localMinute } from "~/lib/local-time";
import { buttonClass } from "~/ui/button";
import { DocumentTitle } from "~/ui/document-title";
import { Field, FormAlert, FormNotice, TextAreaField } from "~/ui/form";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/chapter";

export async function loader({ request, params }: Route.LoaderArgs) {
  const author = await requireAuthor(request);
  const id = rowIdParam(params.id);
  const [chapter, volumes, draft, images, beta] = await Promise.all([
    id ? getChapterForEdit(id) : undefined,
    listVolumes(),
    getDraft(author.id, id ? `chapter:${id}` : "new"),
    artworkChoices(),
    id ? betaState(id) : undefined,
  ]);
  if (id && !chapter) throw data(null, { status: 404 });
  const translations = chapter ? await chapterTranslationMarks(chapter.number) : [];
  const zone = author.timeZone;
  const values: EditorValues = chapter
    ? {
        title: chapter.title,
        volume: String(chapter.volume),
        bodyMd: chapter.bodyMd,
        noteBefore: chapter.noteBefore ?? "",
        noteAfter: chapter.noteAfter ?? "",
        status: chapter.status,
        releaseLocal: localMinute(chapter.releaseAt, zone),
        coinsRequired: String(chapter.coinsRequired),
        tags: chapter.tags.join(", "),
        ...artworkValues(chapter.artwork),
      }
    : {
        title: "",
        volume: String(volumes.at(-1)?.number ?? 1),
        bodyMd: "",
        status: "draft",
        releaseLocal: localMinute(releaseTime(), zone),
        coinsRequired: "0",
        tags: "",
      };
  return {
    id,
    number: chapter?.number,
    version: chapter?.version,
    updatedAt: chapter?.updatedAt.toISOString(),
    values,
    volumes,
    timeZone: zone,
    images,
    beta,
    translations,
    // The version just saved (the action sends the author here with ?saved=N), read here rather than in the
    // browser, so the page hydrates as the server wrote it.
    savedVersion: /^\d{1,10}$/.exec(new URL(request.url).searchParams.get("saved") ?? "")?.[0],
    moved: /^\d{1,6}$/.exec(new URL(request.url).searchParams.get("moved") ?? "")?.[0],
    // An autosaved text newer than the chapter's last save is offered back.
    draft: draft && (!chapter || draft.savedAt > chapter.updatedAt.toISOString()) ? draft : undefined,
  };
}

type ActionResult = {
  errors?: Record<string, string>;
  values?: EditorValues;
  conflict?: { version: number; title: string; bodyMd: string; updatedAt: string; by: string | null };
  saved?: number;
  /** Why the chapter was not deleted: a message key (and how many readers unlocked it). */
  deleteRefused?: string;
  readers?: number;
  /** Why the chapter was not moved to another number (a message key), and the number typed. */
  moveRefused?: string;
  moveTo?: string;
};

/** Moves the chapter to another number (ADR 39); the page then opens again under its new number. */
async function moveAction(id: number, form: FormData, author: { id: number }) {
  const parsed = parseForm(moveSchema, form);
  const moveTo = echoedValue(form, "to", 12);
  if (!parsed.ok) return data<ActionResult>({ moveRefused: "admin.chapter.errors.number", moveTo }, 400);
  const moved = await moveChapter(id, parsed.data.from, parsed.data.to, { via: "admin", userId: author.id });
  if (!moved.ok && moved.reason === "notFound") throw data(null, { status: 404 });
  if (!moved.ok) return data<ActionResult>({ moveRefused: "admin.chapter.move.conflict", moveTo }, 409);
  await refreshContentRevision();
  return redirect(`/admin/chapters/${id}?moved=${moved.number}`);
}

/** The posted fields, echoed back on a refusal so nothing typed is lost (capped like every echo). */
function echo(form: FormData): EditorValues {
  const text = (name: string, max?: number) => echoedValue(form, name, max);
  return {
    title: text("title"),
    volume: text("volume"),
    bodyMd: text("bodyMd", 210_000),
    noteBefore: text("noteBefore", CHAPTER_LIMITS.note + 100),
    noteAfter: text("noteAfter", CHAPTER_LIMITS.note + 100),
    status: text("status") === "published" ? "published" : "draft",
    releaseLocal: text("releaseLocal"),
    coinsRequired: text("coinsRequired"),
    tags: text("tags", 400),
    ...Object.fromEntries(
      artworkSlots.flatMap((slot) => [
        [slot.url, text(slot.url, 500)],
        [slot.caption, text(slot.caption, 400)],
        [slot.position, text(slot.position, 10)],
      ]),
    ),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const author = await requireAuthor(request);
  const id = rowIdParam(params.id);
  const form = await readForm(request);
  if (form.get("intent") === "move") {
    if (id === undefined) throw data(null, { status: 404 });
    return moveAction(id, form, author);
  }
  if (form.get("intent") === "delete") {
    if (id === undefined) throw data(null, { status: 404 });
    if (form.get("confirm") !== "on")
      return data<ActionResult>({ deleteRefused: "admin.chapter.deleteConfirmNeeded" }, 400);
    const deleted = await deleteChapter(id, { via: "admin", userId: author.id });
    if (deleted.ok) {
      await refreshContentRevision();
      return redirect(`/admin/chapters?deleted=${deleted.number}`);
    }
    if (deleted.reason === "notFound") throw data(null, { status: 404 });
    return data<ActionResult>(
      { deleteRefused: "admin.chapter.deleteUnlocked", readers: deleted.readers },
      409,
    );
  }
  const parsed = parseForm(chapterSchema, form);
  if (!parsed.ok) return data<ActionResult>({ errors: parsed.errors, values: echo(form) }, { status: 400 });
  const { releaseLocal, version, ...fields } = parsed.data;
  const input = { ...fields, releaseAt: instantAt(releaseLocal, author.timeZone) };
  const actor = { via: "admin", userId: author.id } as const;
  if (id === undefined) {
    const created = await createChapter(input, actor);
    if (!created.ok)
      return data<ActionResult>(
        { errors: { volume: "admin.chapter.errors.volume" }, values: echo(form) },
        400,
      );
    await refreshContentRevision();
    return redirect(`/admin/chapters/${created.id}?saved=${created.version}`);
  }
  if (version === undefined)
    return data<ActionResult>(
      { errors: { version: "admin.chapter.errors.version" }, values: echo(form) },
      400,
    );
  const saved = await saveChapter(id, input, version, actor);
  if (saved.ok) {
    await refreshContentRevision();
    return redirect(`/admin/chapters/${id}?saved=${saved.version}`);
  }
  if (saved.reason === "notFound") throw data(null, { status: 404 });
  if (saved.reason === "unknownVolume")
    return data<ActionResult>({ errors: { volume: "admin.chapter.errors.volume" }, values: echo(form) }, 400);
  return data<ActionResult>({ conflict: saved.current, values: echo(form) }, { status: 409 });
}

/** An author's note before or after the text (ADR 95): Markdown, optional, shown to readers as "Author's note". */
export default function ChapterEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const result = actionData as ActionResult | undefined;
  const { id, number, volumes, timeZone } = loaderData;
  // "Restore it" brings an autosaved text back: the form is drawn again from it (the editor included).
  const [restored, setRestored] = useState<{ title: string; bodyMd: string }>();
  const base = result?.values ?? loaderData.values;
  const values = restored ? { ...base, title: restored.title, bodyMd: restored.bodyMd } : base;
  // After a conflict the next save is made knowingly from the version now current.
  const version = result?.conflict?.version ?? loaderData.version;
  const saved = loaderData.savedVersion;
  const autosave = useAutosave({ key: id ? `chapter:${id}` : "new", baseVersion: version ?? null });
  const title = id ? t("admin.chapter.editTitle", { number }) : t("admin.chapter.newTitle");
  const errors = result?.errors ?? {};
  return (
    <>
      <DocumentTitle name={title} />
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-display text-3xl text-primary">{title}</h1>
        {id ? (
          <div className="flex flex-wrap gap-3">
            <Link to={`/admin/chapters/${id}/revisions`} className="underline">
              {t("admin.chapter.revisions")}
            </Link>
            <Link to={`/chapter/${number}`} className="underline">
              {t("admin.chapter.view")}
            </Link>
            <span className="flex flex-wrap gap-2" data-testid="preview-as">
              {t("admin.chapter.previewAs")}
              {(["visitor", "reader", "unlocked", "member"] as const).map((audience) => (
                <a key={audience} href={`/chapter/${number}?as=${audience}`} className="underline">
                  {t(`admin.chapter.audiences.${audience}`)}
                </a>
              ))}
            </span>
          </div>
        ) : null}
      </div>
      {saved && !result ? <FormNotice>{t("admin.chapter.saved", { version: saved })}</FormNotice> : null}
      {loaderData.moved && !result ? (
        <FormNotice>{t("admin.chapter.move.done", { number: loaderData.moved })}</FormNotice>
      ) : null}
      {result?.conflict ? (
        <FormAlert>
          {t("admin.chapter.conflict", {
            version: result.conflict.version,
            by: result.conflict.by ?? t("admin.audit.byCommandLine"),
            at: format.date(result.conflict.updatedAt, { dateStyle: "medium", timeStyle: "medium" }),
          })}
        </FormAlert>
      ) : null}
      <DraftNotices
        sessionEnded={autosave.sessionEnded}
        draft={loaderData.draft}
        offerDraft={!result && !restored}
        onRestore={() => setRestored(loaderData.draft)}
      />
      <Form
        method="post"
        ref={autosave.formRef}
        onSubmit={autosave.beforeSave}
        className="flex flex-col gap-5"
        aria-busy={navigation.state === "submitting"}
        key={`${id ?? "new"}-${version ?? 0}-${result?.conflict ? "conflict" : ""}-${restored ? "restored" : ""}`}
      >
        {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
        <Field
          name="title"
          label={t("admin.chapter.title")}
          defaultValue={values.title}
          maxLength={200}
          required
          error={errors.title}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <label className="flex flex-col gap-1">
            <span className="font-display text-sm tracking-wide">{t("admin.chapter.volume")}</span>
            <select
              name="volume"
              defaultValue={values.volume}
              className="min-h-11 rounded-md border border-line bg-transparent px-3"
            >
              {volumes.map((volume) => (
                <option key={volume.number} value={volume.number}>
                  {t("admin.chapters.volumeOption", { number: volume.number, title: volume.title })}
                </option>
              ))}
            </select>
          </label>
          <Field
            name="releaseLocal"
            type="datetime-local"
            label={t("admin.chapter.release")}
            hint={t("admin.chapter.releaseHint", { zone: timeZone })}
            defaultValue={values.releaseLocal}
            required
            error={errors.releaseLocal}
          />
          <Field
            name="coinsRequired"
            type="number"
            min={0}
            max={1000}
            label={t("admin.chapter.coins")}
            defaultValue={values.coinsRequired}
            error={errors.coinsRequired}
          />
        </div>
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-2 font-display text-sm tracking-wide">{t("admin.chapter.status")}</legend>
          {(["draft", "published"] as const).map((status) => (
            <label key={status} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name="status"
                value={status}
                defaultChecked={values.status === status}
                className="h-5 w-5 accent-[color:var(--primary)]"
              />
              {t(`admin.chapter.statuses.${status}`)}
            </label>
          ))}
        </fieldset>
        <Field
          name="tags"
          label={t("admin.chapter.tags")}
          hint={t("admin.chapter.tagsHint")}
          defaultValue={values.tags}
          maxLength={400}
          error={errors.tags}
        />
        <ArtworkFields values={values} errors={errors} images={loaderData.images} />
        <NoteField
          name="noteBefore"
          value={values.noteBefore}
          error={errors.noteBefore}
          hint="admin.chapter.noteHint"
        />
        <MarkdownEditor
          name="bodyMd"
          label={t("admin.chapter.body")}
          defaultValue={values.bodyMd}
          error={errors.bodyMd}
        />
        <NoteField
          name="noteAfter"
          value={values.noteAfter}
          error={errors.noteAfter}
          hint="admin.chapter.noteHint"
        />
        {result?.conflict ? (
          <TextAreaField
            name="theirs"
            label={t("admin.chapter.theirText", { version: result.conflict.version })}
            defaultValue={result.conflict.bodyMd}
            readOnly
            rows={10}
          />
        ) : null}
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" className={buttonClass("primary")}>
            {id ? t("admin.chapter.save") : t("admin.chapter.create")}
          </button>
          <span role="status" className="text-sm text-muted" data-testid="autosave-status">
            {autosave.savedAt
              ? t("admin.chapter.autosaved", { at: format.date(autosave.savedAt, { timeStyle: "medium" }) })
              : ""}
          </span>
        </div>
      </Form>
      {id ? <TranslationsPanel id={id} marks={loaderData.translations} /> : null}
      {id && loaderData.beta ? <BetaMarkForm id={id} state={loaderData.beta} /> : null}
      {id && number !== undefined ? (
        <MoveChapterForm number={number} error={result?.moveRefused} to={result?.moveTo} />
      ) : null}
      {id ? (
        <details className="rounded-xl border border-line p-4" open={Boolean(result?.deleteRefused)}>
          <summary className="cursor-pointer font-display">{t("admin.chapter.delete")}</summary>
          {result?.deleteRefused ? (
            <FormAlert>{t(result.deleteRefused, { count: result.readers ?? 0 })}</FormAlert>
          ) : null}
          <Form method="post" className="mt-3 flex flex-col gap-3">
            <input type="hidden" name="intent" value="delete" />
            <p className="text-sm text-muted">{t("admin.chapter.deleteHint")}</p>
            <label className="flex min-h-11 items-center gap-2">
              <input type="checkbox" name="confirm" required className="h-5 w-5" />
              {t("admin.chapter.deleteConfirm")}
            </label>
            <button type="submit" className={`${buttonClass("outline")} self-start`}>
              {t("admin.chapter.deleteSubmit", { number })}
            </button>
          </Form>
        </details>
      ) : null}
    </>
  );
}
