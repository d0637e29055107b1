import { Form } from "react-router";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Link } from "~/ui/link";
import { useFormat } from "~/ui/use-format";

export type RevisionRow = {
  version: number;
  title: string;
  words: number;
  by: string | null;
  /** Whether this version changed the author's notes (ADR 100). */
  notesChanged?: boolean;
  createdAt: string;
};
export type DiffPart = { kind: "same" | "added" | "removed"; text: string };

/**
 * A text's kept versions, newest first, for the chapter's history and a translation's: each a line with its
 * title, words, author and time, and, for every version but the current one, a link to compare it with the
 * current text and a form restoring it as a new version (made from `current`, so a save since is a conflict).
 */
export function RevisionList({
  revisions,
  current,
  compareHref,
}: {
  revisions: RevisionRow[];
  current: number | undefined;
  compareHref: (version: number) => string;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <ol className="flex flex-col divide-y divide-line" data-testid="revisions">
      {revisions.map((revision) => (
        <li key={revision.version} className="flex flex-wrap items-center justify-between gap-3 py-3">
          <div>
            <p className="font-semibold">
              {t("admin.revisions.version", { version: revision.version })}
              {revision.version === current ? ` · ${t("admin.revisions.current")}` : ""}
            </p>
            <p className="text-sm text-muted">
              {revision.title} · {t("admin.revisions.words", { count: revision.words })} ·{" "}
              {revision.notesChanged ? (
                <>
                  <span data-testid="notes-changed">{t("admin.revisions.notesChanged")}</span> ·{" "}
                </>
              ) : null}
              {revision.by ?? t("admin.revisions.imported")} ·{" "}
              <time dateTime={revision.createdAt}>
                {format.date(revision.createdAt, { dateStyle: "medium", timeStyle: "medium" })}
              </time>
            </p>
          </div>
          {current !== undefined && revision.version !== current ? (
            <div className="flex flex-wrap gap-2">
              <Link to={compareHref(revision.version)} className={buttonClass("ghost")}>
                {t("admin.revisions.compare")}
              </Link>
              <Form method="post">
                <input type="hidden" name="intent" value="restore" />
                <input type="hidden" name="restore" value={revision.version} />
                <input type="hidden" name="version" value={current} />
                <button
                  type="submit"
                  className={buttonClass("outline")}
                  aria-label={t("admin.revisions.restoreOne", { version: revision.version })}
                >
                  {t("admin.revisions.restore")}
                </button>
              </Form>
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * What changed from an earlier version to the current text: added words marked `ins`, removed `del`; then each
 * author's note that changed (ADR 100), under its own heading.
 */
export function TextDiffView({
  from,
  to,
  parts,
  notes = [],
}: {
  from: number;
  to: number;
  parts: DiffPart[];
  notes?: { place: "before" | "after"; parts: DiffPart[] }[];
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="diff-title" className="flex flex-col gap-2">
      <h2 id="diff-title" className="font-display text-xl text-primary">
        {t("admin.revisions.diffTitle", { from, to })}
      </h2>
      <DiffText parts={parts} testId="diff" />
      {notes.map((note) => (
        <section key={note.place} aria-labelledby={`diff-note-${note.place}`} className="flex flex-col gap-2">
          <h3 id={`diff-note-${note.place}`} className="font-semibold">
            {t(note.place === "before" ? "admin.chapter.noteBefore" : "admin.chapter.noteAfter")}
          </h3>
          <DiffText parts={note.parts} testId={`diff-note-${note.place}`} />
        </section>
      ))}
    </section>
  );
}

function DiffText({ parts, testId }: { parts: DiffPart[]; testId: string }) {
  return (
    <pre
      className="overflow-x-auto whitespace-pre-wrap rounded-md border border-line p-3 text-sm"
      data-testid={testId}
    >
      {parts.map((part, index) =>
        part.kind === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === "added" ? (
          <ins
            key={index}
            className="bg-[#dff5e1] text-[#14532d] no-underline dark:bg-[#12351c] dark:text-[#bbf7d0]"
          >
            {part.text}
          </ins>
        ) : (
          <del key={index} className="bg-[#fde2e2] text-[#7f1d1d] dark:bg-[#3b1111] dark:text-[#fecaca]">
            {part.text}
          </del>
        ),
      )}
    </pre>
  );
}
