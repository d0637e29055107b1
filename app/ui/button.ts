const variants = {
  primary: "btn btn-primary",
  outline: "btn btn-outline",
  ghost: "btn btn-ghost",
} as const;

/** Class names for a button or a link styled as one (the styles are components in app.css). */
export function buttonClass(variant: keyof typeof variants = "primary", extra = ""): string {
  return extra ? `${variants[variant]} ${extra}` : variants[variant];
}
