// The reading themes' colours (app.css, ADR 88) meet WCAG's contrast: AA everywhere in sepia and high
// contrast, AAA for the body text of high contrast. Read from the stylesheet itself, so an edited token is
// checked as the browser will draw it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const css = fs.readFileSync(path.join(import.meta.dirname, "../../app.css"), "utf8");

type Rgba = [number, number, number, number];

/** A theme's tokens, from its block (`:root[data-theme="…"], … {`), one a line. */
function tokens(theme: string): Record<string, string> {
  const start = css.indexOf(`:root[data-theme="${theme}"],`);
  expect(start, theme).toBeGreaterThan(-1);
  const block = css.slice(css.indexOf("{", start) + 1, css.indexOf("}", start));
  return Object.fromEntries(
    [...block.matchAll(/--([\w-]+):\s*([^;]+);/g)].map((m) => [m[1], (m[2] ?? "").trim()]),
  );
}

function parse(colour: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  if (hex) {
    const n = Number.parseInt(hex[1] as string, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  const rgb = /^rgb\((\d+) (\d+) (\d+)(?: \/ ([\d.]+))?\)$/.exec(colour);
  if (!rgb) throw new Error(`not a colour this test reads: ${colour}`);
  return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
}

/** A colour drawn over an opaque one. */
function over([r, g, b, a]: Rgba, [R, G, B]: Rgba): Rgba {
  return [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a), 1];
}

function luminance([r, g, b]: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe.each([
  { theme: "sepia", body: 4.5 },
  { theme: "contrast", body: 7 },
])("the $theme reading theme", ({ theme, body }) => {
  const t = tokens(theme);
  const colour = (name: string) => parse(t[name] ?? "missing");
  const page = colour("page-gradient");
  // Where text stands: the page, the pinned bars (the menus' and the reader's), the settings sheet and side
  // menu, and the translucent cards over the page.
  const grounds = {
    page,
    bar: over(colour("bar"), page),
    sheet: over(colour("sheet"), page),
    surface: over(colour("surface"), page),
  };

  it("sets every colour the pages draw with", () => {
    for (const name of ["ink", "muted", "primary", "primary-dark", "accent", "on-primary", "line"])
      expect(t[name], name).toBeDefined();
  });

  it.each(Object.keys(grounds))("body text, secondary text, links and accents on the %s", (ground) => {
    const behind = grounds[ground as keyof typeof grounds];
    expect(contrast(colour("ink"), behind)).toBeGreaterThanOrEqual(body);
    expect(contrast(colour("muted"), behind)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colour("primary"), behind)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colour("accent"), behind)).toBeGreaterThanOrEqual(4.5);
    // The focus ring (3 px of the primary colour) against what it is drawn on.
    expect(contrast(colour("primary"), behind)).toBeGreaterThanOrEqual(3);
  });

  it("buttons and chosen chips: their text on the primary colour, and on its hover shade", () => {
    expect(contrast(colour("on-primary"), colour("primary"))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colour("on-primary"), colour("primary-dark"))).toBeGreaterThanOrEqual(4.5);
  });
});

it("computes WCAG's ratios (black on white 21, a grey at the AA limit)", () => {
  expect(contrast(parse("#000000"), parse("#ffffff"))).toBeCloseTo(21);
  expect(contrast(parse("#767676"), parse("#ffffff"))).toBeCloseTo(4.54, 2);
});
