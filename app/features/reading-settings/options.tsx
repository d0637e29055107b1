import { useTranslation } from "~/i18n/react";
import { type ReadingSettings, settingChoices } from "./settings";

/**
 * One reading setting as a group of radio buttons drawn as chips: used by the chapter's settings sheet
 * (changes apply at once) and by /settings (a form: the radios carry their values).
 */
export function Options<T extends string | number>({
  legend,
  hint,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  /** A line under the legend saying what the setting does (read with the group by screen readers). */
  hint?: string;
  name: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={hint ? `${name}-hint` : undefined}>
      <legend className="mb-2 font-display text-sm tracking-wide">{legend}</legend>
      {hint ? (
        <p id={`${name}-hint`} className="-mt-1 text-sm text-muted">
          {hint}
        </p>
      ) : null}
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

/** Each setting's legend and its choices' labels, as the catalogues name them (`readerPanels.settings`). */
const labels: { [K in keyof ReadingSettings]: [legend: string, group: string, keys: string[]] } = {
  fontSize: ["fontSize", "sizes", ["small", "medium", "large", "extraLarge"]],
  fontFamily: ["fontFamily", "families", [...settingChoices.fontFamily]],
  lineHeight: ["lineHeight", "spacing", ["compact", "normal", "relaxed"]],
  theme: ["theme", "themes", [...settingChoices.theme]],
  textWidth: ["textWidth", "widths", [...settingChoices.textWidth]],
  paragraphSpacing: ["paragraphSpacing", "paragraphs", [...settingChoices.paragraphSpacing]],
  textAlign: ["textAlign", "alignments", [...settingChoices.textAlign]],
  authorNotes: ["authorNotes", "authorNoteViews", [...settingChoices.authorNotes]],
  sideBySide: ["sideBySide", "sideBySides", [...settingChoices.sideBySide]],
};

/** The reading settings (colours, size, font, spacing, width, alignment, side by side), each a group of chips. */
export function ReadingChoices({
  settings,
  onChange,
}: {
  settings: ReadingSettings;
  onChange: (settings: ReadingSettings) => void;
}) {
  const { t } = useTranslation();
  const order: (keyof ReadingSettings)[] = [
    "theme",
    "fontSize",
    "fontFamily",
    "lineHeight",
    "paragraphSpacing",
    "textWidth",
    "textAlign",
    "authorNotes",
    "sideBySide",
  ];
  return (
    <>
      {order.map((name) => {
        const [legend, group, keys] = labels[name];
        return (
          <Options<string | number>
            key={name}
            legend={t(`readerPanels.settings.${legend}`)}
            hint={name === "sideBySide" ? t("readerPanels.settings.sideBySideHint") : undefined}
            name={name}
            value={settings[name]}
            options={settingChoices[name].map((value, index) => ({
              value,
              label: t(`readerPanels.settings.${group}.${keys[index]}`),
            }))}
            onChange={(value) => onChange({ ...settings, [name]: value })}
          />
        );
      })}
    </>
  );
}
