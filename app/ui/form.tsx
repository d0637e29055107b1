import {
  type FocusEvent,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
  useRef,
  useState,
} from "react";
import type { z } from "zod";
import { useTranslation } from "~/i18n/react";
import { type FieldErrors, parseForm } from "~/lib/forms";

/**
 * Client-side validation with the action's own schema: a bad form is stopped before it is sent and its
 * messages shown at once; the server checks again and its answer wins.
 */
export function useFormValidation(
  schema: z.ZodType | (() => Promise<z.ZodType>),
  serverErrors: FieldErrors | undefined,
) {
  // A schema given as an import is loaded once the form is first used (onFocus): a page whose form most
  // readers never touch does not load and run zod while it starts. Sent before it arrives, the form is
  // checked by the server alone, as without JavaScript. Once it is here the form says so (data-checks).
  const loaded = useRef(typeof schema === "function" ? undefined : schema);
  const onFocus = (event: FocusEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    if (!loaded.current && typeof schema === "function")
      void schema().then((ready) => {
        loaded.current = ready;
        form.dataset.checks = "ready";
      });
  };
  const [clientErrors, setClientErrors] = useState<FieldErrors>();
  const [lastServerErrors, setLastServerErrors] = useState(serverErrors);
  if (serverErrors !== lastServerErrors) {
    setLastServerErrors(serverErrors);
    setClientErrors(undefined);
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!loaded.current) return;
    const result = parseForm(loaded.current, new FormData(event.currentTarget));
    if (result.ok) {
      setClientErrors(undefined);
      return;
    }
    event.preventDefault();
    setClientErrors(result.errors);
    const first = Object.keys(result.errors)[0];
    if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };
  return { errors: clientErrors ?? serverErrors ?? {}, onSubmit, onFocus };
}

const inputClass =
  "min-h-11 w-full rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink aria-[invalid=true]:border-[#c0392b]";

/** What every control of a field carries: its id and name, its state and description, its look. */
type ControlAttributes = {
  id: string;
  name: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  className: string;
};

type FieldProps = {
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** The control's id, where a form wants a fixed one; by default each field gets one of its own. */
  id?: string;
};

/**
 * A field's id: readable (its name) and unique on the page (React's id for this field), so a label focuses
 * its own control when several forms on one page have a field of the same name (a note, the current
 * password). React gives the server's render and the browser's hydration the same id.
 */
function useFieldId(name: string, given?: string) {
  const unique = useId();
  return given ?? `field-${name}${unique}`;
}

/** A control's label above it and its hint and (translated) error below, linked for screen readers. */
function FieldFrame({
  name,
  label,
  error,
  hint,
  id: given,
  control,
}: FieldProps & { control: (attributes: ControlAttributes) => ReactNode }) {
  const { t } = useTranslation();
  const id = useFieldId(name, given);
  const describedBy =
    [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-display text-sm tracking-wide">
        {label}
      </label>
      {control({
        id,
        name,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        className: inputClass,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-[#b42318] dark:text-[#ff8a80]">
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input with its (translated) error beside it, linked for screen readers. */
export function Field({
  name,
  label,
  error,
  hint,
  id,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame
      {...{ name, label, error, hint, id }}
      control={(attributes) => <input {...attributes} {...input} />}
    />
  );
}

/** The same for a choice from a list (the options are its children). */
export function SelectField({
  name,
  label,
  error,
  hint,
  id,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldFrame
      {...{ name, label, error, hint, id }}
      control={(attributes) => (
        <select {...attributes} {...select}>
          {children}
        </select>
      )}
    />
  );
}

/** The same for a text of several lines. */
export function TextAreaField({
  name,
  label,
  error,
  hint,
  id,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame
      {...{ name, label, error, hint, id }}
      control={(attributes) => (
        <textarea {...attributes} className={`${attributes.className} min-h-40`} {...textarea} />
      )}
    />
  );
}

export function Checkbox({
  name,
  label,
  error,
  ...input
}: { name: string; label: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const { t } = useTranslation();
  const id = useFieldId(name);
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-2">
        <input
          id={id}
          name={name}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="mt-1 h-5 w-5 accent-[color:var(--primary)]"
          {...input}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-[#b42318] dark:text-[#ff8a80]">
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}

/** The form-level message: a red box above the form (role=alert, so it is announced). */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-[#b42318] bg-[#fdecea] px-4 py-3 text-[#7a1a12] dark:bg-[#3b0d0a] dark:text-[#ffb4a9]"
    >
      {children}
    </div>
  );
}

export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="rounded-md border border-primary px-4 py-3">
      {children}
    </div>
  );
}
