import { expect, hydrated, test } from "../support/fixtures";

/** When each resource of the page started loading, and when the page was first painted (ms from navigation). */
async function timeline(page: import("@playwright/test").Page) {
  return page.evaluate(() => ({
    firstPaint: performance.getEntriesByName("first-paint")[0]?.startTime ?? Number.NaN,
    resources: performance
      .getEntriesByType("resource")
      .map((entry) => ({ url: new URL(entry.name).pathname, start: entry.startTime })),
  }));
}

// ADR 11: the page paints with its HTML, stylesheet and artwork alone; the app's scripts (the boot script
// first, ADR 13) and the site's faces are asked for once it has been painted, and a repeat visit takes the
// (cached) faces before painting.
test("scripts and faces load after the first paint; a repeat visit paints with the faces", async ({
  page,
}) => {
  await page.goto("/chapter/1");
  await hydrated(page);
  const { firstPaint, resources } = await timeline(page);
  expect(resources.filter((r) => /\/assets\/boot-[\w-]+\.js$/.test(r.url))).toHaveLength(1);
  const late = resources.filter((r) => /\/assets\/.+\.(js|woff2)$|\/assets\/fonts-.+\.css$/.test(r.url));
  expect(late.filter((r) => r.url.endsWith(".js")).length).toBeGreaterThan(1);
  expect(late.some((r) => r.url.endsWith(".woff2"))).toBe(true);
  for (const resource of late) expect(resource.start, resource.url).toBeGreaterThanOrEqual(firstPaint);

  // The app works once started: the settings sheet opens.
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();

  await page.reload();
  await expect(page.locator('head link[rel="stylesheet"][blocking="render"][href*="/fonts-"]')).toHaveCount(
    1,
  );
  await hydrated(page);
  // Declared by the stylesheet and loaded (`check` alone is also true where no face is declared at all).
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.fonts].some((face) => face.family === "Cinzel" && face.status === "loaded"),
      ),
    )
    .toBe(true);
  expect(await page.evaluate(() => document.fonts.check('600 16px "Cinzel"'))).toBe(true);
});

// ADR 55: on a first visit the faces are loaded with the Font Loading API and added together, once all have
// arrived, so the page is laid out again once (the font stylesheet relaid it out once, then once a face).
test("a first visit adds the four faces in one go, the font stylesheet loaded for print only", async ({
  page,
}) => {
  // Each face added is marked with the run of script it was added in: a run ends at its first microtask.
  await page.addInitScript(() => {
    const added: number[] = [];
    let run = 0;
    let open = false;
    Object.assign(window, { facesAdded: added });
    const add = FontFaceSet.prototype.add;
    FontFaceSet.prototype.add = function (this: FontFaceSet, face: FontFace) {
      if (!open) {
        open = true;
        run++;
        queueMicrotask(() => {
          open = false;
        });
      }
      added.push(run);
      return add.call(this, face);
    };
  });
  await page.goto("/chapter/1");
  await hydrated(page);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { facesAdded: number[] }).facesAdded.length))
    .toBe(4);
  const added = await page.evaluate(() => (window as unknown as { facesAdded: number[] }).facesAdded);
  expect(new Set(added).size, "all four in one run of script").toBe(1);
  // The site's faces (app.css declares others: the fallbacks and the reading settings' faces).
  const siteFaces = await page.evaluate(() =>
    [...document.fonts]
      .filter((face) => ["Cinzel", "Cormorant Garamond"].includes(face.family.replaceAll('"', "")))
      .map((face) => `${face.family.replaceAll('"', "")} ${face.weight} ${face.style} ${face.status}`),
  );
  expect(siteFaces.sort()).toEqual([
    "Cinzel 600 normal loaded",
    "Cormorant Garamond 400 italic loaded",
    "Cormorant Garamond 400 normal loaded",
    "Cormorant Garamond 600 normal loaded",
  ]);
  expect(await page.evaluate(() => document.fonts.check('600 16px "Cinzel"'))).toBe(true);
  // The font stylesheet is read for its faces, loaded for print only: none of its faces applies on screen.
  await expect(page.locator('link[href*="/fonts-"]')).toHaveAttribute("media", "print");
  expect(await page.evaluate(() => localStorage.getItem("fonts"))).toBe("1");
});

test("the served page preloads no script and names the faces for browsers without JavaScript", async ({
  request,
}) => {
  const html = await (await request.get("/chapter/1")).text();
  expect(html).not.toMatch(/<link[^>]*modulepreload/);
  expect(html).toMatch(/<noscript><link rel="stylesheet" href="\/assets\/fonts-[\w-]+\.css"\/><\/noscript>/);
});

test("a visitor's stored reading settings are applied before any of the app's code runs; unknown values are not", async ({
  page,
}) => {
  // Every script file comes back empty: what the reader sees comes from the head script and the stylesheet.
  await page.route("**/assets/*.js", (route) => route.fulfill({ contentType: "text/javascript", body: "" }));
  const stored = (settings: object) =>
    page.addInitScript((value) => localStorage.setItem("reading", value), JSON.stringify({ settings }));
  await stored({ fontSize: 20, lineHeight: 2, fontFamily: "sans-serif" });
  await page.goto("/chapter/1");
  const article = page.locator("article");
  await expect(article).toHaveCSS("font-size", "20px");
  await expect(article).toHaveCSS("line-height", "40px");
  expect(await article.evaluate((element) => getComputedStyle(element).fontFamily)).toMatch(/system-ui/);

  await stored({ fontSize: "20px;color:red", lineHeight: 9, fontFamily: "x" });
  await page.reload();
  await expect(article).toHaveCSS("font-size", "16px");
  await expect(article).toHaveCSS("line-height", "28px");
});
