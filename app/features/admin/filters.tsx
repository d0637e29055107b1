import type { ReactNode } from "react";
import { buttonClass } from "~/ui/button";

const controlClass = "min-h-11 rounded-md border border-line bg-transparent px-3";

/** A list's filters: a GET form (the filtered list is a URL to bookmark or share), each control labelled. */
export function FilterForm({ submit, children }: { submit: string; children: ReactNode }) {
  return (
    <search>
      <form method="get" className="flex flex-wrap items-end gap-3">
        {children}
        <button type="submit" className={buttonClass("primary")}>
          {submit}
        </button>
      </form>
    </search>
  );
}

export function FilterText({
  label,
  name,
  value,
  type = "text",
  maxLength,
}: {
  label: string;
  name: string;
  value: string | undefined;
  type?: "text" | "search";
  maxLength: number;
}) {
  return (
    <label className="flex flex-col gap-1">
      <span className="text-sm">{label}</span>
      <input type={type} name={name} defaultValue={value} maxLength={maxLength} className={controlClass} />
    </label>
  );
}

/** A choice among options, the first ("any") sending nothing. */
export function FilterSelect({
  label,
  name,
  value,
  any,
  options,
}: {
  label: string;
  name: string;
  value: string | number | undefined;
  any: string;
  options: { value: string | number; label: string }[];
}) {
  return (
    <label className="flex flex-col gap-1">
      <span className="text-sm">{label}</span>
      <select name={name} defaultValue={value ?? ""} className={controlClass}>
        <option value="">{any}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The next page of a filtered list: the same filters, from the last row seen (`before`). */
export function nextPagePath(
  path: string,
  filter: Record<string, string | number | undefined>,
  before: number,
) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, before })) if (value) params.set(key, String(value));
  return `${path}?${params}`;
}
