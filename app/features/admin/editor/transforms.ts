import {
  EditorSelection,
  type EditorState,
  type SelectionRange,
  type StateCommand,
  type TransactionSpec,
} from "@codemirror/state";

/**
 * The editor's Markdown formatting as pure functions of an editor state: each returns the change to make
 * (a transaction spec) for every selection range, or a command that dispatches it. No DOM, so they are
 * tested on `EditorState` alone (transforms.test.ts); the toolbar and the shortcuts both run them.
 */

/** How many times `char` repeats going left from `end` (exclusive) or right from `start`. */
function runLength(text: string, char: string, from: number, step: 1 | -1): number {
  let count = 0;
  for (let i = from; i >= 0 && i < text.length && text[i] === char; i += step) count++;
  return count;
}

/** A marker of `size` stars is around a text when the runs on both sides are that long, or three (***). */
function markedBy(before: number, after: number, size: number): boolean {
  const run = Math.min(before, after);
  return run === size || run === 3;
}

/**
 * Bold (`**`) or italic (`*`) on each selection range, as a toggle:
 * - an empty range gets the pair of markers with the cursor between them;
 * - a range already inside the markers (`**|word|**`), or holding them (`|**word**|`), loses them;
 * - otherwise the text is wrapped, spaces at its ends left outside (`**word** `, never `**word **`, which
 *   Markdown would not read as bold), and stays selected.
 */
export function toggleWrap(state: EditorState, marker: "*" | "**"): TransactionSpec {
  const size = marker.length;
  return state.changeByRange((range) => {
    const text = state.sliceDoc(range.from, range.to);
    if (range.empty) {
      return {
        changes: { from: range.from, insert: marker + marker },
        range: EditorSelection.cursor(range.from + size),
      };
    }
    // Markers just outside the selection.
    const around = state.sliceDoc(Math.max(0, range.from - 3), Math.min(state.doc.length, range.to + 3));
    const offset = range.from - Math.max(0, range.from - 3);
    const beforeRun = runLength(around, "*", offset - 1, -1);
    const afterRun = runLength(around, "*", offset + text.length, 1);
    if (markedBy(beforeRun, afterRun, size)) {
      return {
        changes: [
          { from: range.from - size, to: range.from },
          { from: range.to, to: range.to + size },
        ],
        range: EditorSelection.range(range.from - size, range.to - size),
      };
    }
    // Markers at the ends of the selection.
    const innerBefore = runLength(text, "*", 0, 1);
    const innerAfter = runLength(text, "*", text.length - 1, -1);
    if (text.length > 2 * size && markedBy(innerBefore, innerAfter, size)) {
      return {
        changes: [
          { from: range.from, to: range.from + size },
          { from: range.to - size, to: range.to },
        ],
        range: EditorSelection.range(range.from, range.to - 2 * size),
      };
    }
    const lead = text.length - text.trimStart().length;
    const trail = text.length - text.trimEnd().length;
    if (lead === text.length) {
      return { range };
    }
    const from = range.from + lead;
    const to = range.to - trail;
    return {
      changes: [
        { from, insert: marker },
        { from: to, insert: marker },
      ],
      range: EditorSelection.range(from + size, to + size),
    };
  });
}

const HEADING = /^#{1,6}[ \t]+|^#{1,6}$/;
const QUOTE = /^>[ \t]?/;

/** The numbers of the lines the selection touches (a range ending at a line's start leaves that line out). */
function selectedLines(state: EditorState): number[] {
  const lines = new Set<number>();
  for (const range of state.selection.ranges) {
    const first = state.doc.lineAt(range.from).number;
    let last = state.doc.lineAt(range.to).number;
    if (!range.empty && last > first && state.doc.line(last).from === range.to) last--;
    for (let line = first; line <= last; line++) lines.add(line);
  }
  return [...lines].sort((a, b) => a - b);
}

/**
 * A line prefix as a toggle on the lines the selection touches (blank lines aside): if every one has it
 * (`pattern`), it is removed; otherwise `prefix` is added where missing (a heading of another level becomes
 * this one). The selection moves with the text.
 */
function toggleLinePrefix(state: EditorState, prefix: string, pattern: RegExp): TransactionSpec {
  const lines = selectedLines(state)
    .map((number) => state.doc.line(number))
    .filter((line) => line.text.trim() !== "");
  if (lines.length === 0) {
    const line = state.doc.lineAt(state.selection.main.head);
    const changes = state.changes({ from: line.from, insert: prefix });
    return { changes, selection: state.selection.map(changes, 1) };
  }
  const all = lines.every((line) => pattern.test(line.text));
  const changes = state.changes(
    lines.flatMap((line) => {
      const existing = pattern.exec(line.text)?.[0] ?? "";
      if (all) return [{ from: line.from, to: line.from + existing.length }];
      if (existing === prefix) return [];
      return [{ from: line.from, to: line.from + existing.length, insert: prefix }];
    }),
  );
  return { changes, selection: state.selection.map(changes, 1) };
}

/** `## ` on the selected lines, or off if they are all headings (the chapter's title is the page's h1). */
export function toggleHeading(state: EditorState): TransactionSpec {
  return toggleLinePrefix(state, "## ", HEADING);
}

/** `> ` on the selected lines, or off if they are all quoted. */
export function toggleQuote(state: EditorState): TransactionSpec {
  return toggleLinePrefix(state, "> ", QUOTE);
}

/** The scene break as the chapters write it. */
export const SCENE_BREAK = "* * *";

/** How many of the (up to two) characters on one side of a position are line breaks, counted outward. */
function newlinesBeside(state: EditorState, pos: number, side: -1 | 1): number {
  let count = 0;
  for (let i = 0; i < 2; i++) {
    const at = side < 0 ? pos - 1 - i : pos + i;
    if (at < 0 || at >= state.doc.length || state.sliceDoc(at, at + 1) !== "\n") break;
    count++;
  }
  return count;
}

/**
 * A scene break in place of each selection range, as a paragraph of its own: a blank line before it (unless
 * at the start of the text) and after it; the cursor lands at the start of the next paragraph.
 */
export function insertSceneBreak(state: EditorState): TransactionSpec {
  return state.changeByRange((range: SelectionRange) => {
    const before = range.from === 0 ? 2 : newlinesBeside(state, range.from, -1);
    const after = newlinesBeside(state, range.to, 1);
    const insert = `${"\n".repeat(2 - before)}${SCENE_BREAK}${"\n".repeat(2 - after)}`;
    return {
      changes: { from: range.from, to: range.to, insert },
      range: EditorSelection.cursor(range.from + insert.length + after),
    };
  });
}

const URL_ONLY = /^(https?:\/\/|mailto:)\S+$/i;

/**
 * A link from each selection range: selected text becomes `[text]()` with the cursor where the address
 * goes; a selected address becomes `[](address)` with the cursor where the text goes; nothing selected
 * gives `[]()` with the cursor in the brackets.
 */
export function insertLink(state: EditorState): TransactionSpec {
  return state.changeByRange((range) => {
    const text = state.sliceDoc(range.from, range.to);
    const isUrl = URL_ONLY.test(text.trim());
    const insert = isUrl ? `[](${text.trim()})` : `[${text}]()`;
    const cursor = isUrl || range.empty ? range.from + 1 : range.from + insert.length - 1;
    return { changes: { from: range.from, to: range.to, insert }, range: EditorSelection.cursor(cursor) };
  });
}

/** A transform as a command for a key binding or a button: it always applies, as typing would. */
function command(transform: (state: EditorState) => TransactionSpec): StateCommand {
  return ({ state, dispatch }) => {
    dispatch(state.update(transform(state), { scrollIntoView: true, userEvent: "input.format" }));
    return true;
  };
}

export const formatting = {
  bold: command((state) => toggleWrap(state, "**")),
  italic: command((state) => toggleWrap(state, "*")),
  heading: command(toggleHeading),
  quote: command(toggleQuote),
  link: command(insertLink),
  sceneBreak: command(insertSceneBreak),
} satisfies Record<string, StateCommand>;

export type FormattingName = keyof typeof formatting;
