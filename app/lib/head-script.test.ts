// The head script (head-script.ts) against a fake page: as written, and as the build minifies it into the
// page's text (inline-script.ts), run apart from its module as the browser runs it.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { waitFor } from "../../tests/support/poll";
import { tempDir } from "../../tests/support/temp";
import { headScript } from "./head-script";
import { inlineScript } from "./inline-script";

const settingKeys = ["fontSize", "fontFamily", "lineHeight"];
const fontsHref = "/assets/fonts.css";

type Element = Record<string, unknown> & { tagName: string };
type Face = { family: string; src: string; descriptors: object };

/** The parts of a browser the head script reads, recording what it does with them. */
function fakePage({
  storage = {} as Record<string, unknown> | "refused",
  cookie = "",
  systemDark = false,
  dataset = {} as Record<string, string>,
  failingFace = "",
} = {}) {
  const page = {
    // As the browser's DOMStringMap: what is stored is text.
    dataset: new Proxy(dataset, {
      set: (target, key: string, value) => {
        target[key] = String(value);
        return true;
      },
    }),
    classes: new Set<string>(),
    head: [] as Element[],
    fonts: [] as Face[],
    storage,
    observed: undefined as object | undefined,
    disconnected: false,
    paint: () => {},
    transitions: [] as { update: unknown; ready: Promise<void> }[],
  };
  const refused = () => {
    throw new DOMException("The operation is insecure.", "SecurityError");
  };
  vi.stubGlobal("document", {
    documentElement: { dataset: page.dataset, classList: { add: (name: string) => page.classes.add(name) } },
    head: { append: (element: Element) => page.head.push(element) },
    createElement: (tagName: string) => ({ tagName }),
    cookie,
    fonts: { add: (face: Face) => page.fonts.push(face) },
    startViewTransition(update: unknown) {
      const transition = { update, ready: Promise.reject(new DOMException("Skipped", "AbortError")) };
      page.transitions.push(transition);
      return transition;
    },
  });
  vi.stubGlobal(
    "localStorage",
    storage === "refused" ? new Proxy({}, { get: refused, set: refused }) : storage,
  );
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query === "(prefers-color-scheme: dark)" && systemDark,
  }));
  vi.stubGlobal(
    "FontFace",
    class {
      constructor(
        readonly family: string,
        readonly src: string,
        readonly descriptors: object,
      ) {}
      load = () =>
        this.family === failingFace ? Promise.reject(new Error("network")) : Promise.resolve(this);
    },
  );
  vi.stubGlobal(
    "PerformanceObserver",
    class {
      constructor(callback: (list: unknown, observer: unknown) => void) {
        page.paint = () => callback({}, this);
      }
      observe(options: object) {
        page.observed = options;
      }
      disconnect() {
        page.disconnected = true;
      }
    },
  );
  return page;
}

/** A boot script that counts its runs, as the address the head script imports. */
const bootHref = (name: string) =>
  `data:text/javascript,${encodeURIComponent(`globalThis.${name} = (globalThis.${name} ?? 0) + 1;`)}`;
const booted = (name: string) => (globalThis as Record<string, unknown>)[name];

/** The font stylesheet's rules as the browser gives them (`@font-face` rules' style). */
const fontRules = [
  { family: '"Cinzel"', src: 'url("/assets/cinzel.woff2") format("woff2")', weight: "600", style: "normal" },
  { family: '"Cormorant Garamond"', src: 'url("/assets/cormorant.woff2")', weight: "400", style: "italic" },
].map(({ family, src, weight, style }) => ({
  style: {
    fontFamily: family,
    fontWeight: weight,
    fontStyle: style,
    src,
  },
}));

const source = fs.readFileSync(new URL("./head-script.ts", import.meta.url), "utf8");
const minified = await inlineScript(source, "head-script.ts");
// The text alone, in a module of its own: it reaches nothing of head-script.ts.
const builtFile = path.join(tempDir(), "head-script.mjs");
fs.writeFileSync(builtFile, `export default ${minified};\n`);
const { default: built } = (await import(/* @vite-ignore */ builtFile)) as { default: typeof headScript };

const runs = {
  "as written": (boot: string) => headScript(fontsHref, boot, settingKeys),
  "as the build writes it": (boot: string) => built(fontsHref, boot, settingKeys),
};

let runCount = 0;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The browser paints, then runs the task the head script queued. */
function paint(page: ReturnType<typeof fakePage>) {
  page.paint();
  vi.runAllTimers();
  vi.useRealTimers();
}

/** The print stylesheet the head script asked for has loaded. */
function loadStylesheet(page: ReturnType<typeof fakePage>) {
  const onload = page.head[0]?.onload as ((this: unknown) => void) | undefined;
  onload?.call({ sheet: { cssRules: fontRules } });
}

describe.each(Object.entries(runs))("the head script, %s", (_, run) => {
  const start = (options?: Parameters<typeof fakePage>[0]) => {
    const page = fakePage(options);
    const name = `booted${++runCount}`;
    run(bootHref(name));
    return { page, name };
  };

  test("applies a visitor's stored reading settings, only the known ones", () => {
    const reading = { settings: { fontSize: 20, fontFamily: "dyslexic", lineHeight: 0, colour: "red" } };
    const { page } = start({ storage: { reading: JSON.stringify(reading) } });
    expect(page.dataset).toEqual({ fontSize: "20", fontFamily: "dyslexic" });
  });

  test("keeps the settings the server rendered for a signed-in reader", () => {
    const reading = { settings: { fontSize: 20, fontFamily: "dyslexic", lineHeight: 2 } };
    const rendered = { fontSize: "18", fontFamily: "serif", lineHeight: "1.5" };
    const { page } = start({ storage: { reading: JSON.stringify(reading) }, dataset: { ...rendered } });
    expect(page.dataset).toEqual(rendered);
  });

  test("a first visit, unreadable stored settings or refused storage leave the defaults", () => {
    expect(start().page.dataset).toEqual({});
    expect(start({ storage: { reading: "{not json" } }).page.dataset).toEqual({});
    const refused = start({ storage: "refused", systemDark: true });
    expect(refused.page.dataset).toEqual({});
    // The rest of the script still runs.
    expect(refused.page.classes.has("dark")).toBe(true);
  });

  test("follows the system's dark scheme until the reader has chosen a theme", () => {
    expect(start({ systemDark: true }).page.classes.has("dark")).toBe(true);
    expect(start({ systemDark: false }).page.classes.has("dark")).toBe(false);
    expect(start({ systemDark: true, cookie: "lang=en; theme=light" }).page.classes.has("dark")).toBe(false);
    expect(start({ systemDark: true, cookie: "theme=light" }).page.classes.has("dark")).toBe(false);
    // Another cookie whose name ends in "theme" is no choice.
    expect(start({ systemDark: true, cookie: "routetheme=light" }).page.classes.has("dark")).toBe(true);
  });

  test("on a repeat visit, asks for the font stylesheet before painting and nothing more after", async () => {
    const { page, name } = start({ storage: { fonts: "1" } });
    expect(page.head).toEqual([
      expect.objectContaining({
        tagName: "link",
        rel: "stylesheet",
        href: fontsHref,
        blocking: "render",
        media: "all",
      }),
    ]);
    paint(page);
    await waitFor(() => booted(name), { what: "the boot script" });
    expect(page.head).toHaveLength(1);
  });

  test("imports the boot script once the page has painted, not before", async () => {
    const { page, name } = start();
    expect(page.observed).toEqual({ type: "paint", buffered: true });
    expect(page.head).toEqual([]);
    page.paint();
    expect(page.disconnected).toBe(true);
    expect(booted(name)).toBeUndefined();
    vi.runAllTimers();
    vi.useRealTimers();
    expect(await waitFor(() => booted(name), { what: "the boot script" })).toBe(1);
  });

  test("on a first visit, after the paint loads the faces from the stylesheet and adds them together", async () => {
    const { page } = start();
    paint(page);
    expect(page.head).toEqual([expect.objectContaining({ href: fontsHref, blocking: "", media: "print" })]);
    loadStylesheet(page);
    await waitFor(() => (page.storage as Record<string, unknown>).fonts, { what: "the faces" });
    expect(page.fonts).toEqual([
      expect.objectContaining({
        family: "Cinzel",
        src: 'url("/assets/cinzel.woff2") format("woff2")',
        descriptors: { weight: "600", style: "normal" },
      }),
      expect.objectContaining({
        family: "Cormorant Garamond",
        descriptors: { weight: "400", style: "italic" },
      }),
    ]);
    expect(page.head).toHaveLength(1);
  });

  test("a face that fails to load falls back to the stylesheet for the screen", async () => {
    const { page } = start({ failingFace: "Cormorant Garamond" });
    paint(page);
    loadStylesheet(page);
    const fallback = await waitFor(() => page.head[1], { what: "the fallback stylesheet" });
    expect(fallback).toEqual(expect.objectContaining({ href: fontsHref, blocking: "", media: "all" }));
    expect(page.fonts).toEqual([]);
  });

  test("a view transition the browser aborts is no unhandled rejection", async () => {
    const { page } = start();
    const update = () => {};
    const transition = (
      document as unknown as { startViewTransition: (update: unknown) => unknown }
    ).startViewTransition(update);
    expect(transition).toBe(page.transitions[0]);
    expect(page.transitions[0]?.update).toBe(update);
    // Vitest fails the run on an unhandled rejection; let it see one if there is.
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe("the head script's text (inline-script.ts)", () => {
  test("is one minified function expression", () => {
    expect(minified).toMatch(/^function\([a-z],[a-z],[a-z]\)\{/);
    expect(minified.length).toBeLessThan(1200);
  });

  test("refuses a module holding more than its function", async () => {
    await expect(inlineScript(`${source}\nconst other = 1;`, "head-script.ts")).rejects.toThrow(
      /one exported function and nothing else/,
    );
    await expect(inlineScript(`import "./polyfill";\n${source}`, "head-script.ts")).rejects.toThrow(
      /one exported function and nothing else/,
    );
  });
});
