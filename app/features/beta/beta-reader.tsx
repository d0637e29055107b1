import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { blockAt } from "~/features/reader/blocks";
import { ChapterBody } from "~/features/reader/chapter-body";
import { useTranslation } from "~/i18n/react";
import { buttonClass } from "~/ui/button";
import { Field, FormAlert, FormNotice, TextAreaField } from "~/ui/form";
import { BETA_LIMITS } from "./limits";

/** The note's field, focused from the bar a pressed paragraph opens. */
const NOTE_ID = "beta-note";

/** What the feedback action answers: field errors, a refusal's message key, or the note sent. */
export type FeedbackResult = {
  errors?: Record<string, string>;
  error?: string;
  minutes?: number;
  sent?: { id: number; left: number };
  values?: { body: string; paragraph: string };
};

/** The place of the block holding `target`, or -1 when it is not inside one of the article's blocks. */
function blockIndexOf(article: Element, target: Element): number {
  let block: Element | null = target;
  while (block && block.parentElement !== article) block = block.parentElement;
  return block ? [...article.children].indexOf(block) : -1;
}

/** The words of the block at a place in the text on the page (the note's form shows what it is about). */
function blockWords(article: HTMLElement | null, index: number | undefined): string {
  if (!article || index === undefined) return "";
  const text = blockAt(article, index)?.textContent?.replace(/\s+/g, " ").trim() ?? "";
  return text.length > BETA_LIMITS.quoteMax ? `${text.slice(0, BETA_LIMITS.quoteMax - 1)}…` : text;
}

/**
 * A beta chapter's text, rendered as the chapter page renders it, and the form for a note to the author.
 * Pressing a paragraph selects it (a bar then offers a note on it); the form's paragraph number does the same
 * by keyboard, and left empty the note is about the whole chapter.
 */
export function BetaReader({ html, result }: { html: string; result: FeedbackResult | undefined }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const articleRef = useRef<HTMLElement>(null);
  // The paragraph field as typed (numbered from 1); a press on a paragraph writes it.
  const [paragraph, setParagraph] = useState(result?.sent ? "" : (result?.values?.paragraph ?? ""));
  const [barOpen, setBarOpen] = useState(false);
  const index = /^\d{1,4}$/.test(paragraph) ? Number(paragraph) - 1 : undefined;
  const [quote, setQuote] = useState("");

  useEffect(() => {
    for (const [place, block] of [...(articleRef.current?.children ?? [])].entries())
      block.toggleAttribute("data-selected", place === index);
    setQuote(blockWords(articleRef.current, index));
  }, [index]);

  useEffect(() => {
    if (result?.sent) setParagraph("");
  }, [result?.sent]);

  const select = (event: React.MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest("a")) return;
    const article = articleRef.current;
    const place = article ? blockIndexOf(article, event.target as Element) : -1;
    if (place < 0) return;
    setParagraph(String(place + 1));
    setBarOpen(true);
  };

  return (
    <>
      {/* A press on a paragraph is a pointer's shortcut: the form's paragraph field does it by keyboard. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the paragraph field below is the keyboard's way */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: as above */}
      <div className="beta-text" onClick={select} data-testid="beta-text">
        <ChapterBody html={html} articleRef={articleRef} />
      </div>
      {barOpen && index !== undefined ? (
        <div className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-[color:var(--bar)] px-4 py-3">
          <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-2">
            <span>{t("beta.selected", { number: index + 1 })}</span>
            <span className="flex gap-2">
              <button
                type="button"
                className={buttonClass("primary")}
                onClick={() => {
                  setBarOpen(false);
                  document.getElementById(NOTE_ID)?.focus();
                }}
              >
                {t("beta.writeNote")}
              </button>
              <button
                type="button"
                className={buttonClass("ghost")}
                onClick={() => {
                  setBarOpen(false);
                  setParagraph("");
                }}
              >
                {t("beta.clearSelection")}
              </button>
            </span>
          </div>
        </div>
      ) : null}
      <section
        aria-labelledby="beta-feedback-title"
        className="mx-auto mt-12 flex max-w-[38em] flex-col gap-4 rounded-xl border border-line p-4 sm:p-6"
      >
        <h2 id="beta-feedback-title" className="font-display text-2xl text-primary">
          {t("beta.feedbackTitle")}
        </h2>
        <p className="text-sm text-muted">{t("beta.feedbackIntro", { count: BETA_LIMITS.perHour })}</p>
        {result?.sent ? <FormNotice>{t("beta.sent", { count: result.sent.left })}</FormNotice> : null}
        {result?.error ? <FormAlert>{t(result.error, { minutes: result.minutes ?? 60 })}</FormAlert> : null}
        <Form
          method="post"
          className="flex flex-col gap-4"
          key={result?.sent?.id ?? "form"}
          aria-busy={navigation.state === "submitting"}
        >
          <Field
            name="paragraph"
            label={t("beta.paragraph")}
            hint={t("beta.paragraphHint")}
            inputMode="numeric"
            pattern="[0-9]*"
            maxLength={4}
            value={paragraph}
            onChange={(event) => setParagraph(event.currentTarget.value)}
            error={result?.errors?.paragraph}
          />
          {quote ? (
            <blockquote className="border-l-4 border-primary pl-3 text-sm italic" data-testid="beta-quote">
              {quote}
            </blockquote>
          ) : null}
          <TextAreaField
            id={NOTE_ID}
            name="body"
            label={
              index === undefined ? t("beta.noteChapter") : t("beta.noteParagraph", { number: index + 1 })
            }
            hint={t("beta.bodyHint", { max: BETA_LIMITS.bodyMax })}
            maxLength={BETA_LIMITS.bodyMax}
            required
            defaultValue={result?.sent ? "" : (result?.values?.body ?? "")}
            error={result?.errors?.body}
          />
          <button type="submit" className={`${buttonClass("primary")} self-start`}>
            {t("beta.send")}
          </button>
        </Form>
      </section>
    </>
  );
}
