import { useTranslation } from "~/i18n/react";
import { Field, SelectField } from "~/ui/form";
import { artworkSlots, CHAPTER_LIMITS } from "./chapter-form";

export type ArtworkChoice = { url: string; label: string };

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
      {artworkSlots.map((slot, index) => {
        const url = values[slot.url] ?? "";
        // An address the chapter has that is not among the uploads listed stays a choice.
        const known = !url || images.some((image) => image.url === url);
        const choices = known ? images : [{ url, label: url }, ...images];
        return (
          <div key={slot.url} className="grid gap-3 sm:grid-cols-[2fr_2fr_1fr]">
            <SelectField
              name={slot.url}
              label={t("admin.chapter.artworkImage", { number: index + 1 })}
              defaultValue={url}
              error={errors[slot.url]}
            >
              <option value="">{t("admin.chapter.artworkNone")}</option>
              {choices.map((image) => (
                <option key={image.url} value={image.url}>
                  {image.label}
                </option>
              ))}
            </SelectField>
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
        );
      })}
    </fieldset>
  );
}
