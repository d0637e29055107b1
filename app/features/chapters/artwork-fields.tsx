import { useTranslation } from "~/i18n/react";
import { Field, SelectField } from "~/ui/form";
import { artworkSlots, CHAPTER_LIMITS } from "./chapter-form";

export type ArtworkChoice = { url: string; label: string };

/**
 * The uploads to choose an image from, with `url` first when it is an address the row already has that is
 * not among them (an imported `/media/…` picture): saving the form unchanged keeps it.
 */
export function withCurrentImage(images: ArtworkChoice[], url: string | undefined): ArtworkChoice[] {
  return !url || images.some((image) => image.url === url) ? images : [{ url, label: url }, ...images];
}

/** A choice of one image among the uploads (or the row's own address), with a first option for none. */
export function ImageChoiceField({
  name,
  label,
  value,
  error,
  images,
  none,
  hint,
}: {
  name: string;
  label: string;
  value: string | undefined;
  error: string | undefined;
  images: ArtworkChoice[];
  /** The first option's text (its value is empty). */
  none: string;
  hint?: string;
}) {
  return (
    <SelectField name={name} label={label} hint={hint} defaultValue={value ?? ""} error={error}>
      <option value="">{none}</option>
      {withCurrentImage(images, value).map((image) => (
        <option key={image.url} value={image.url}>
          {image.label}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * The chapter's artwork: up to three images, each an upload (listed by name and size; uploaded on the Images
 * page) or the address the chapter already had, with a caption and a side of the text.
 */
export function ArtworkFields({
  values,
  errors,
  images,
}: {
  values: Partial<Record<string, string>>;
  errors: Record<string, string>;
  images: ArtworkChoice[];
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="flex flex-col gap-4 rounded-xl border border-line p-4">
      <legend className="px-1 font-display text-sm tracking-wide">{t("admin.chapter.artwork")}</legend>
      <p className="text-sm text-muted">{t("admin.chapter.artworkHint")}</p>
      {artworkSlots.map((slot, index) => (
        <div key={slot.url} className="grid gap-3 sm:grid-cols-[2fr_2fr_1fr]">
          <ImageChoiceField
            name={slot.url}
            label={t("admin.chapter.artworkImage", { number: index + 1 })}
            value={values[slot.url]}
            error={errors[slot.url]}
            images={images}
            none={t("admin.chapter.artworkNone")}
          />
          <Field
            name={slot.caption}
            label={t("admin.chapter.artworkCaption", { number: index + 1 })}
            defaultValue={values[slot.caption] ?? ""}
            maxLength={CHAPTER_LIMITS.caption}
            error={errors[slot.caption]}
          />
          <SelectField
            name={slot.position}
            label={t("admin.chapter.artworkPosition", { number: index + 1 })}
            defaultValue={values[slot.position] ?? "before"}
            error={errors[slot.position]}
          >
            <option value="before">{t("admin.chapter.artworkBefore")}</option>
            <option value="after">{t("admin.chapter.artworkAfter")}</option>
          </SelectField>
        </div>
      ))}
    </fieldset>
  );
}
