import { useTranslation } from "~/i18n/react";
import { fontFamilyKeys, fontSizes, lineHeights, type ReadingSettings } from "./settings";

/**
 * One reading setting as a group of radio buttons drawn as chips: used by the chapter's settings sheet
 * (changes apply at once) and by /settings (a form: the radios carry their values).
 */
export function Options<T extends string | number>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 font-display text-sm tracking-wide">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => (
          <label
            key={String(option.value)}
            className="inline-flex min-h-11 cursor-pointer items-center rounded-md border border-line px-3 has-[:checked]:border-primary has-[:checked]:bg-primary has-[:checked]:text-on-primary has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-primary"
          >
            <input
              type="radio"
              name={name}
              className="sr-only"
              value={String(option.value)}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The three reading settings (size, font, spacing), each a group of chips. */
export function ReadingChoices({
  settings,
  onChange,
}: {
  settings: ReadingSettings;
  onChange: (settings: ReadingSettings) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Options
        legend={t("readerPanels.settings.fontSize")}
        name="fontSize"
        value={settings.fontSize}
        options={fontSizes.map((s) => ({
          value: s.value as number,
          label: t(`readerPanels.settings.sizes.${s.key}`),
        }))}
        onChange={(fontSize) => onChange({ ...settings, fontSize })}
      />
      <Options
        legend={t("readerPanels.settings.fontFamily")}
        name="fontFamily"
        value={settings.fontFamily}
        options={fontFamilyKeys.map((key) => ({
          value: key,
          label: t(`readerPanels.settings.families.${key}`),
        }))}
        onChange={(fontFamily) => onChange({ ...settings, fontFamily })}
      />
      <Options
        legend={t("readerPanels.settings.lineHeight")}
        name="lineHeight"
        value={settings.lineHeight}
        options={lineHeights.map((h) => ({
          value: h.value as number,
          label: t(`readerPanels.settings.spacing.${h.key}`),
        }))}
        onChange={(lineHeight) => onChange({ ...settings, lineHeight })}
      />
    </>
  );
}
