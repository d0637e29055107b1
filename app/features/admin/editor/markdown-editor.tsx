import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { MARKDOWN_MAX_BYTES, markdownBytes } from "~/lib/markdown-limits";
import { countWords, readingMinutes } from "~/lib/words";
import { buttonClass } from "~/ui/button";
import { useFormat } from "~/ui/use-format";
import type { EditorCommand, EditorHandle } from "./codemirror";
import { fetchPreview, PreviewQueue, type PreviewResult } from "./preview-queue";

/** The editor's code, fetched once the component has mounted in a browser (never on a reader's page). */
const loadEditor = () => import("./codemirror");

/** How often the word count may change while typing (it is read aloud, politely). */
const STATS_EVERY_MS = 500;
/** Tailwind's `lg`: from here the preview sits beside the text; below it, behind a tab. */
const WIDE = "(min-width: 64rem)";

type Stats = { words: number; minutes: number; bytes: number };

function statsOf(text: string): Stats {
  const words = countWords(text);
  return { words, minutes: readingMinutes(words), bytes: markdownBytes(text) };
}

/** The toolbar's buttons: the command, its visible sign, its shortcut letter if it has one. */
const tools: { command: EditorCommand; sign: string; key?: string; className?: string }[] = [
  { command: "bold", sign: "B", key: "B", className: "font-bold" },
  { command: "italic", sign: "I", key: "I", className: "italic" },
  { command: "heading", sign: "H" },
  { command: "quote", sign: "❝" },
  { command: "link", sign: "🔗", key: "K" },
  { command: "sceneBreak", sign: "* * *" },
  { command: "undo", sign: "↶", key: "Z" },
  { command: "redo", sign: "↷" },
];

/** Arrow keys, Home and End move between a group's items (a toolbar's buttons, a tab list's tabs). */
function moveFocus(event: KeyboardEvent<HTMLElement>, count: number, current: number): number | undefined {
  const next = {
    ArrowLeft: (current - 1 + count) % count,
    ArrowRight: (current + 1) % count,
    Home: 0,
    End: count - 1,
  }[event.key];
  if (next === undefined) return undefined;
  event.preventDefault();
  const items = event.currentTarget.querySelectorAll<HTMLElement>("button");
  items[next]?.focus();
  return next;
}

function Toolbar({ onRun, controls }: { onRun: (command: EditorCommand) => void; controls: string }) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  // Rendered in the browser only (after the editor loaded), so the platform can be read at once.
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <div
      role="toolbar"
      aria-label={t("admin.editor.toolbar")}
      aria-controls={controls}
      className="flex flex-wrap gap-1"
      onKeyDown={(event) => {
        const next = moveFocus(event, tools.length, active);
        if (next !== undefined) setActive(next);
      }}
    >
      {tools.map((tool, index) => {
        const name = t(`admin.editor.${tool.command}`);
        return (
          <button
            key={tool.command}
            type="button"
            tabIndex={index === active ? 0 : -1}
            aria-label={name}
            aria-keyshortcuts={tool.key ? `${mac ? "Meta" : "Control"}+${tool.key}` : undefined}
            title={
              tool.key
                ? t("admin.editor.withShortcut", { action: name, keys: `${mac ? "⌘" : "Ctrl+"}${tool.key}` })
                : name
            }
            className={buttonClass("tool", `min-w-11 border border-line ${tool.className ?? ""}`)}
            onFocus={() => setActive(index)}
            // The editor keeps its selection (and focus) when a button is pressed with the pointer.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onRun(tool.command)}
          >
            <span aria-hidden="true">{tool.sign}</span>
          </button>
        );
      })}
    </div>
  );
}

/**
 * The author's Markdown editor. The server (and a browser without JavaScript) renders a labelled textarea
 * named `name`, which the enclosing form posts. In the browser it then loads CodeMirror over it (toolbar,
 * Mod-B / Mod-I / Mod-K, undo and redo, line wrapping), keeping the textarea's value equal to the text after
 * every change, so the form still posts the current text and other code can read it there. Beside it on wide
 * screens, behind a Write / Preview tab on phones, the preview: the server's own rendering
 * (/admin/preview, the reader's sanitising pipeline) in the chapter's text style. Below, the word count and
 * reading time, counted as the server counts them (app/lib/words.ts).
 */
export function MarkdownEditor({
  name,
  label,
  defaultValue = "",
  onChange,
  id,
  hint,
  error,
  previewUrl = "/admin/preview",
  previewBeside = true,
}: {
  /** The form field's name (`bodyMd` for a chapter). */
  name: string;
  label: ReactNode;
  defaultValue?: string;
  /** Called with the whole text after every change (typed in the textarea or in the editor). */
  onChange?: (text: string) => void;
  /** The textarea's id (default: one of its own). */
  id?: string;
  hint?: ReactNode;
  /** A message key, shown under the editor and linked to it for screen readers. */
  error?: string;
  previewUrl?: string;
  /** Whether the preview stands beside the text on wide screens (false: under it, for a half-width editor). */
  previewBeside?: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const own = useId();
  const textareaId = id ?? `${own}text`;
  const labelId = `${own}label`;
  const hintId = hint ? `${own}hint` : undefined;
  const errorId = error ? `${own}error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  const writeId = `${own}write`;
  const previewId = `${own}preview`;

  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const textRef = useRef(defaultValue);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const queueRef = useRef<PreviewQueue | undefined>(undefined);
  const statsTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const [editor, setEditor] = useState<EditorHandle>();
  const [stats, setStats] = useState(() => statsOf(defaultValue));
  const [tab, setTab] = useState<"write" | "preview">("write");
  const [wide, setWide] = useState(false);
  const [preview, setPreview] = useState<PreviewResult>();
  const [stale, setStale] = useState(true);

  const changed = useCallback((text: string) => {
    textRef.current = text;
    onChangeRef.current?.(text);
    queueRef.current?.update(text);
    setStale(true);
    statsTimer.current ??= setTimeout(() => {
      statsTimer.current = undefined;
      setStats(statsOf(textRef.current));
    }, STATS_EVERY_MS);
  }, []);

  // CodeMirror over the textarea, from the text it holds by then.
  useEffect(() => {
    const textarea = textareaRef.current;
    const host = hostRef.current;
    if (!textarea || !host) return;
    let handle: EditorHandle | undefined;
    let cancelled = false;
    void loadEditor().then(({ mountEditor }) => {
      if (cancelled) return;
      handle = mountEditor(textarea, host, { labelledBy: labelId, onChange: changed });
      setEditor(handle);
    });
    return () => {
      cancelled = true;
      handle?.destroy();
      setEditor(undefined);
    };
  }, [labelId, changed]);

  // A hint or an error that comes or goes (the form's answer) describes the editor as it does the textarea.
  useEffect(() => {
    editor?.describe(describedBy);
  }, [editor, describedBy]);

  useEffect(() => () => clearTimeout(statsTimer.current), []);

  useEffect(() => {
    const query = window.matchMedia(WIDE);
    const update = () => setWide(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);

  // The preview, asked for while its pane is shown (a text over the limit is refused here, unsent).
  useEffect(() => {
    const send = fetchPreview(previewUrl, "bodyMd");
    const queue = new PreviewQueue(
      (text) =>
        markdownBytes(text) > MARKDOWN_MAX_BYTES
          ? Promise.resolve({ error: "admin.editor.tooLong" })
          : send(text),
      (result, more) => {
        setPreview(result);
        setStale(more);
      },
      textRef.current,
    );
    queueRef.current = queue;
    return () => {
      queue.dispose();
      queueRef.current = undefined;
    };
  }, [previewUrl]);

  const previewShown = editor !== undefined && (wide || tab === "preview");
  useEffect(() => {
    queueRef.current?.setActive(previewShown);
  }, [previewShown]);

  const tabs = [
    { key: "write", controls: writeId },
    { key: "preview", controls: previewId },
  ] as const;
  const tooLong = stats.bytes > MARKDOWN_MAX_BYTES;
  const kilobytes = MARKDOWN_MAX_BYTES / 1024;

  return (
    <div className="flex flex-col gap-2">
      {/* The textarea's label; once the editor is there, the editor's name (aria-labelledby). */}
      <label id={labelId} htmlFor={textareaId} className="font-display text-sm tracking-wide">
        {label}
      </label>
      {editor ? (
        <div
          role="tablist"
          aria-label={t("admin.editor.views")}
          className="flex gap-1 lg:hidden"
          onKeyDown={(event) => {
            const next = moveFocus(event, tabs.length, tab === "write" ? 0 : 1);
            if (next !== undefined) setTab(tabs[next]?.key ?? "write");
          }}
        >
          {tabs.map(({ key, controls }) => (
            <button
              key={key}
              id={`${controls}-tab`}
              type="button"
              role="tab"
              aria-selected={tab === key}
              aria-controls={controls}
              tabIndex={tab === key ? 0 : -1}
              className={buttonClass(tab === key ? "primary" : "ghost")}
              onClick={() => setTab(key)}
            >
              {t(`admin.editor.${key}`)}
            </button>
          ))}
        </div>
      ) : null}
      <div className={`grid gap-4 ${previewBeside ? "lg:grid-cols-2" : ""}`}>
        <div
          id={writeId}
          {...(editor ? { role: "tabpanel", "aria-labelledby": `${writeId}-tab` } : {})}
          className={`flex min-w-0 flex-col gap-2 ${editor && tab === "preview" ? "hidden lg:flex" : ""}`}
        >
          {editor ? <Toolbar onRun={editor.run} controls={writeId} /> : null}
          <textarea
            ref={textareaRef}
            id={textareaId}
            name={name}
            defaultValue={defaultValue}
            rows={20}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className="min-h-40 w-full rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink"
            onChange={(event) => changed(event.currentTarget.value)}
          />
          <div ref={hostRef} />
        </div>
        {editor ? (
          <section
            id={previewId}
            role="tabpanel"
            aria-labelledby={`${previewId}-tab`}
            aria-busy={previewShown && stale}
            // The preview scrolls and may hold no control: focusable, so a keyboard can scroll it.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern gives a tab panel tabindex 0
            tabIndex={0}
            className={`min-w-0 overflow-auto rounded-md border border-line p-4 lg:max-h-[70vh] ${tab === "write" ? "hidden lg:block" : ""}`}
          >
            {preview === undefined ? (
              <p className="text-sm text-muted">{t("admin.editor.previewLoading")}</p>
            ) : "error" in preview ? (
              <p className="text-sm text-[#b42318] dark:text-[#ff8a80]">{t(preview.error, { kilobytes })}</p>
            ) : preview.html === "" ? (
              <p className="text-sm text-muted">{t("admin.editor.previewEmpty")}</p>
            ) : (
              <div className="reader-text" dangerouslySetInnerHTML={{ __html: preview.html }} />
            )}
          </section>
        ) : null}
      </div>
      <p aria-live="polite" className="text-sm text-muted">
        {t("admin.editor.stats", {
          words: format.number(stats.words),
          minutes: format.number(stats.minutes),
        })}
        {tooLong ? (
          <span className="text-[#b42318] dark:text-[#ff8a80]">
            {" · "}
            {t("admin.editor.tooLong", { kilobytes })}
          </span>
        ) : null}
      </p>
      {hint ? (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-[#b42318] dark:text-[#ff8a80]">
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}
