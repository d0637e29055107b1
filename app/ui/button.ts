const base =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-5 py-2 font-display text-sm tracking-wide transition-colors disabled:cursor-not-allowed disabled:opacity-60";

const variants = {
  primary: "bg-primary text-on-primary hover:bg-primary-dark",
  outline: "border border-primary text-primary hover:bg-primary hover:text-on-primary",
  ghost: "text-ink hover:bg-[color:var(--line)]",
} as const;

/** Class names for a button or a link styled as one. */
export function buttonClass(variant: keyof typeof variants = "primary", extra = ""): string {
  return `${base} ${variants[variant]} ${extra}`;
}
