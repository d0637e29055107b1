import { EditorSelection, EditorState, type TransactionSpec } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import {
  formatting,
  insertLink,
  insertSceneBreak,
  toggleHeading,
  toggleQuote,
  toggleWrap,
} from "./transforms";

/**
 * A text with the selection marked in it: `|` is a cursor, `[` … `]` a selected range (several allowed).
 * `show` writes a state back the same way, so each case reads as before -> after.
 */
function state(marked: string): EditorState {
  const ranges = [];
  let doc = "";
  let start = -1;
  for (const char of marked) {
    if (char === "|") ranges.push(EditorSelection.cursor(doc.length));
    else if (char === "[") start = doc.length;
    else if (char === "]") ranges.push(EditorSelection.range(start, doc.length));
    else doc += char;
  }
  return EditorState.create({
    doc,
    selection: EditorSelection.create(ranges.length ? ranges : [EditorSelection.cursor(0)]),
    extensions: EditorState.allowMultipleSelections.of(true),
  });
}

function show(current: EditorState): string {
  const marks: { at: number; mark: string }[] = [];
  for (const range of current.selection.ranges) {
    if (range.empty) marks.push({ at: range.from, mark: "|" });
    else marks.push({ at: range.from, mark: "[" }, { at: range.to, mark: "]" });
  }
  let out = current.doc.toString();
  for (const { at, mark } of marks.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + mark + out.slice(at);
  return out;
}

const apply = (transform: (s: EditorState) => TransactionSpec, marked: string) => {
  const before = state(marked);
  return show(before.update(transform(before)).state);
};

describe("bold and italic", () => {
  const bold = (s: EditorState) => toggleWrap(s, "**");
  const italic = (s: EditorState) => toggleWrap(s, "*");

  it("wraps the selection and keeps it selected", () => {
    expect(apply(bold, "a [word] here")).toBe("a **[word]** here");
    expect(apply(italic, "a [word] here")).toBe("a *[word]* here");
  });

  it("leaves spaces at the ends of the selection outside the markers", () => {
    expect(apply(bold, "a[ word ]here")).toBe("a **[word]** here");
  });

  it("puts an empty pair at a cursor, with the cursor inside", () => {
    expect(apply(bold, "a | b")).toBe("a **|** b");
    expect(apply(italic, "|")).toBe("*|*");
  });

  it("unwraps a selection inside the markers, or holding them", () => {
    expect(apply(bold, "a **[word]** here")).toBe("a [word] here");
    expect(apply(bold, "a [**word**] here")).toBe("a [word] here");
    expect(apply(italic, "a *[word]* here")).toBe("a [word] here");
  });

  it("tells bold from italic around the same text", () => {
    // Italic inside bold: the stars around are bold's, so italic adds its own (***word***).
    expect(apply(italic, "**[word]**")).toBe("***[word]***");
    expect(apply(bold, "*[word]*")).toBe("***[word]***");
    // From bold italic, each removes only its own stars.
    expect(apply(italic, "***[word]***")).toBe("**[word]**");
    expect(apply(bold, "***[word]***")).toBe("*[word]*");
  });

  it("leaves a selection of spaces alone", () => {
    expect(apply(bold, "a[   ]b")).toBe("a[   ]b");
  });

  it("works on every range of a multiple selection", () => {
    expect(apply(bold, "[one] and [two]")).toBe("**[one]** and **[two]**");
  });
});

describe("heading and quote", () => {
  it("makes the cursor's line a second-level heading, and back", () => {
    expect(apply(toggleHeading, "Title|\n\nText")).toBe("## Title|\n\nText");
    expect(apply(toggleHeading, "## Title|\n\nText")).toBe("Title|\n\nText");
    // The cursor at the line's start stays after the new marker.
    expect(apply(toggleHeading, "|Title")).toBe("## |Title");
  });

  it("turns a heading of another level into this one when lines are mixed", () => {
    expect(apply(toggleHeading, "[### One\nTwo]")).toBe("[## One\n## Two]");
    expect(apply(toggleHeading, "[### One\n# Two]")).toBe("[One\nTwo]");
  });

  it("quotes every non-blank line of the selection, and unquotes them", () => {
    expect(apply(toggleQuote, "[one\n\ntwo]\nthree")).toBe("> [one\n\n> two]\nthree");
    expect(apply(toggleQuote, "[> one\n>two]")).toBe("[one\ntwo]");
  });

  it("leaves out the line a selection ends at the start of", () => {
    expect(apply(toggleQuote, "[one\n]two")).toBe("> [one\n]two");
  });

  it("puts the marker on a blank line with the cursor after it", () => {
    expect(apply(toggleQuote, "a\n|\nb")).toBe("a\n> |\nb");
  });
});

describe("scene break", () => {
  it("is a paragraph of its own in the middle of a line", () => {
    expect(apply(insertSceneBreak, "End of one.|Start of two.")).toBe(
      "End of one.\n\n* * *\n\n|Start of two.",
    );
  });

  it("adds only the line breaks that are missing", () => {
    expect(apply(insertSceneBreak, "One.\n|\nTwo.")).toBe("One.\n\n* * *\n\n|Two.");
    expect(apply(insertSceneBreak, "One.\n\n|\n\nTwo.")).toBe("One.\n\n* * *\n\n|Two.");
    expect(apply(insertSceneBreak, "|Two.")).toBe("* * *\n\n|Two.");
    expect(apply(insertSceneBreak, "One.|")).toBe("One.\n\n* * *\n\n|");
  });

  it("replaces a selection", () => {
    expect(apply(insertSceneBreak, "One.\n\n[cut this]\n\nTwo.")).toBe("One.\n\n* * *\n\n|Two.");
  });
});

describe("link", () => {
  it("makes selected text a link and leaves the cursor where the address goes", () => {
    expect(apply(insertLink, "see [the map] here")).toBe("see [the map](|) here");
  });

  it("makes a selected address a link and leaves the cursor where the text goes", () => {
    expect(apply(insertLink, "see [https://example.com/map] here")).toBe(
      "see [|](https://example.com/map) here",
    );
  });

  it("inserts an empty link at a cursor", () => {
    expect(apply(insertLink, "see | here")).toBe("see [|]() here");
  });
});

describe("commands", () => {
  it("dispatch one transaction marked as formatting, which undo history can take back", () => {
    const before = state("[word]");
    let after: EditorState | undefined;
    const done = formatting.bold({
      state: before,
      dispatch: (transaction) => {
        expect(transaction.isUserEvent("input.format")).toBe(true);
        expect(transaction.scrollIntoView).toBe(true);
        after = transaction.state;
      },
    });
    expect(done).toBe(true);
    expect(after && show(after)).toBe("**[word]**");
  });
});
