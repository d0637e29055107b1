import { history, historyKeymap, redo, standardKeymap, undo } from "@codemirror/commands";
import { markdownKeymap, markdownLanguage } from "@codemirror/lang-markdown";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, type StateCommand } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { type FormattingName, formatting } from "./transforms";

/**
 * CodeMirror over the editor's textarea (ADR 36). Only this module imports CodeMirror, and
 * only `markdown-editor.tsx` imports it, with `import()` once it has mounted: the browser downloads it on an
 * admin page that shows an editor, never on a reader's page, and the server never renders it.
 */

export type EditorCommand = FormattingName | "undo" | "redo";

export type EditorHandle = {
  /** Runs a toolbar command on the selection and gives the text the focus back. */
  run: (name: EditorCommand) => void;
  focus: () => void;
  /** Points the editor's description at other elements (a hint, an error shown after it mounted). */
  describe: (describedBy: string | undefined) => void;
  /** Takes the editor away and shows the textarea again, holding the current text. */
  destroy: () => void;
};

type Options = {
  /** The id of the visible label: the editor's content is named by it. */
  labelledBy: string;
  /** Called with the whole text after each change, once the textarea holds it. */
  onChange: (text: string) => void;
};

const commands: Record<EditorCommand, StateCommand> = { ...formatting, undo, redo };

/**
 * Colours from the site's own variables, so the light and dark themes (the `dark` class on <html>) restyle the
 * editor with the page; the text in the reader's serif, the markup in the muted colour.
 */
const theme = EditorView.theme({
  "&": {
    color: "var(--ink)",
    backgroundColor: "var(--surface)",
    border: "1px solid var(--line)",
    borderRadius: "0.375rem",
  },
  "&.cm-focused": { outline: "3px solid var(--primary)", outlineOffset: "2px" },
  ".cm-scroller": {
    fontFamily: "var(--font-reader-serif)",
    fontSize: "1.05rem",
    lineHeight: "1.7",
    minHeight: "24rem",
    maxHeight: "70vh",
  },
  ".cm-content": { padding: "0.75rem 0.25rem", caretColor: "var(--ink)" },
  ".cm-line": { padding: "0 0.5rem" },
});

const highlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: "bold", color: "var(--primary)" },
  { tag: tags.strong, fontWeight: "bold" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: tags.link, textDecoration: "underline" },
  { tag: [tags.processingInstruction, tags.contentSeparator, tags.url, tags.meta], color: "var(--muted)" },
  { tag: tags.quote, color: "var(--muted)" },
  { tag: tags.monospace, fontFamily: "ui-monospace, monospace", fontSize: "0.9em" },
]);

const isDark = () => document.documentElement.classList.contains("dark");

/**
 * Mounts the editor in `host`, starting from the textarea's text (what was typed before this loaded too),
 * and hides the textarea, which keeps the text after every change: the form posts it by the textarea's name
 * and other code can read it there. Tab is left to move the focus on (no indenting), so the keyboard can
 * always leave the editor.
 */
export function mountEditor(
  textarea: HTMLTextAreaElement,
  host: HTMLElement,
  options: Options,
): EditorHandle {
  const darkMode = new Compartment();
  const description = new Compartment();
  const described = (ids: string | undefined) =>
    EditorView.contentAttributes.of(ids ? { "aria-describedby": ids } : {});
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        history(),
        keymap.of([
          { key: "Mod-b", run: formatting.bold, preventDefault: true },
          { key: "Mod-i", run: formatting.italic, preventDefault: true },
          { key: "Mod-k", run: formatting.link, preventDefault: true },
          ...markdownKeymap,
          ...historyKeymap,
          ...standardKeymap,
        ]),
        markdownLanguage,
        syntaxHighlighting(highlight),
        EditorView.lineWrapping,
        theme,
        darkMode.of(EditorView.darkTheme.of(isDark())),
        description.of(described(textarea.getAttribute("aria-describedby") ?? undefined)),
        EditorView.contentAttributes.of({
          "aria-labelledby": options.labelledBy,
          spellcheck: "true",
          autocorrect: "on",
          autocapitalize: "sentences",
          // Editable content is already in the tab order; said explicitly, tools that look for a tabindex
          // (axe's scrollable-region-focusable) see that the scrolling editor can be reached by keyboard.
          tabindex: "0",
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          const text = update.state.doc.toString();
          textarea.value = text;
          // For listeners on the form (unsaved-changes checks), as if it had been typed there.
          textarea.dispatchEvent(new Event("input", { bubbles: true }));
          options.onChange(text);
        }),
      ],
    }),
  });
  textarea.hidden = true;

  // The site's theme switch toggles the class on <html>; CodeMirror's own defaults follow it.
  const observer = new MutationObserver(() =>
    view.dispatch({ effects: darkMode.reconfigure(EditorView.darkTheme.of(isDark())) }),
  );
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });

  // A form reset puts the textarea back to its first text: the editor follows (after the reset has run).
  const form = textarea.form;
  const onReset = () =>
    setTimeout(() => {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: textarea.value } });
    });
  form?.addEventListener("reset", onReset);

  return {
    run(name) {
      commands[name](view);
      view.focus();
    },
    focus: () => view.focus(),
    describe: (ids) => view.dispatch({ effects: description.reconfigure(described(ids)) }),
    destroy() {
      observer.disconnect();
      form?.removeEventListener("reset", onReset);
      textarea.value = view.state.doc.toString();
      view.destroy();
      textarea.hidden = false;
    },
  };
}
