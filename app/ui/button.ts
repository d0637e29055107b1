const variants = {
  primary: "btn btn-primary",
  outline: "btn btn-outline",
  ghost: "btn btn-ghost",
  /** A compact ghost button for a toolbar (the chapter page's bar). */
  tool: "btn btn-tool",
} as const;

/** Class names for a button or a link styled as one (the styles are components in app.css). */
export function buttonClass(variant: keyof typeof variants = "primary", extra = ""): string {
  return extra ? `${variants[variant]} ${extra}` : variants[variant];
}
