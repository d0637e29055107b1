import { CHAPTER_LIMITS } from "~/features/chapters/chapter-form";
import { useTranslation } from "~/i18n/react";
import { TextAreaField } from "~/ui/form";
import { useFormat } from "~/ui/use-format";

/**
 * An author's note before or after a chapter (ADR 95), in the chapter's editor or its translation's (ADR 100):
 * the same field, limit and label; the hint says what an empty note means there.
 */
export function NoteField({
  name,
  value,
  error,
  hint,
}: {
  name: "noteBefore" | "noteAfter";
  value: string | undefined;
  error: string | undefined;
  hint: "admin.chapter.noteHint" | "admin.translation.noteHint";
}) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <TextAreaField
      name={name}
      label={t(`admin.chapter.${name}`)}
      hint={t(hint, { max: format.number(CHAPTER_LIMITS.note) })}
      defaultValue={value ?? ""}
      maxLength={CHAPTER_LIMITS.note}
      rows={4}
      error={error}
    />
  );
}
