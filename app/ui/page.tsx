import type { ReactNode } from "react";

/** The common page frame: a centred column with a display heading. */
export function Page({
  title,
  eyebrow,
  intro,
  children,
  width = "max-w-5xl",
}: {
  title: ReactNode;
  eyebrow?: ReactNode;
  intro?: ReactNode;
  children?: ReactNode;
  width?: string;
}) {
  return (
    <div className={`mx-auto ${width} px-4 py-10 sm:px-6 sm:py-14`}>
      <header className="mb-8 text-center">
        {eyebrow ? (
          <p className="mb-2 font-display text-sm tracking-[0.3em] text-accent uppercase">{eyebrow}</p>
        ) : null}
        <h1 className="font-display text-3xl tracking-wide text-primary sm:text-4xl">{title}</h1>
        {intro ? <div className="mx-auto mt-4 max-w-2xl text-lg text-muted">{intro}</div> : null}
      </header>
      {children}
    </div>
  );
}
