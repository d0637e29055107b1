import path from "node:path";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { chapters } from "#db/schema";
import { chapterStatus } from "~/features/chapters/access";
import { getChapterCatalog } from "~/features/chapters/catalog.server";
import { unlockChapter } from "~/features/coins/unlock.server";
import { chapterTextHtml } from "~/features/content/markdown.server";
import { forgetKeptEpubs } from "~/features/epub/download.server";
import { epubDownloadRule } from "~/features/epub/limits";
import { getEnv } from "~/lib/env.server";
import { setMediaStore } from "~/lib/media-store.server";
import { LocalMediaStore } from "~/lib/storage.server";
import { loader } from "~/routes/epub";
import { drivers, openTestDatabase } from "../support/database";
import { firstEntry, unpackEpub, wordsOf, xml, xmlProblem } from "../support/epub";
import { createReader, grantCoins, grantMembership } from "../support/factories";
import { unique } from "../support/unique";

/** The EPUB builds made, counted (a kept file is not built again). */
const builds = vi.hoisted(() => ({ count: 0 }));
vi.mock("~/features/epub/build.server", async (importOriginal) => {
  const { countingCalls } = await import("../support/counting");
  return countingCalls(
    await importOriginal<typeof import("~/features/epub/build.server")>(),
    "buildEpub",
    builds,
  );
});

/** The download as a browser asks for it: its own address (throttled per address) unless signed in. */
async function download(pathname: string, cookie?: string, ip = unique("10.0.")) {
  const volume = /^\/epub\/volume\/(.*)$/.exec(pathname)?.[1];
  return (await loader({
    request: new Request(`http://localhost${pathname}`, { headers: cookie ? { Cookie: cookie } : {} }),
    params: volume === undefined ? {} : { volume: decodeURIComponent(volume) },
    context: { ip, requestId: "epub-test" },
  } as never)) as Response;
}

async function book(pathname: string, cookie?: string) {
  const response = await download(pathname, cookie);
  expect(response.status).toBe(200);
  return { response, epub: unpackEpub(new Uint8Array(await response.arrayBuffer())) };
}

/** A chapter's paragraphs as a reader reads them (the chapter page's pipeline), the longer ones. */
async function paragraphsOf(number: number): Promise<string[]> {
  const [row] = await db()
    .select({ bodyMd: chapters.bodyMd })
    .from(chapters)
    .where(eq(chapters.number, number));
  return [...chapterTextHtml(row?.bodyMd ?? "").matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)]
    .map((match) => wordsOf(match[1] ?? "").trim())
    .filter((text) => text.length > 60);
}

let handle: DatabaseHandle;
const db = () => handle.db;

describe.each(drivers)("the EPUB download on %s", (driver) => {
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    forgetKeptEpubs();
    // The demo content's media, as the import copies it into the store.
    setMediaStore(new LocalMediaStore(path.resolve("content/media")));
  });
  afterAll(async () => {
    setMediaStore(undefined);
    await handle.close();
  });

  it("is a valid EPUB 3: mimetype first and stored, the container, the package, the navigation, well-formed XHTML", async () => {
    const { response, epub } = await book("/epub");
    expect(response.headers.get("content-type")).toBe("application/epub+zip");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+\.epub"$/);
    const bytes = new Uint8Array(await (await download("/epub")).arrayBuffer());
    expect(firstEntry(bytes)).toEqual({
      signature: 0x04034b50,
      method: 0,
      name: "mimetype",
      extraLength: 0,
      data: "application/epub+zip",
    });

    const container = xml.parse(epub.text("META-INF/container.xml"));
    const rootfile = container.container.rootfiles.rootfile;
    expect(rootfile["@media-type"]).toBe("application/oebps-package+xml");
    const opfPath = rootfile["@full-path"] as string;
    const opfText = epub.text(opfPath);
    expect(xmlProblem(opfText)).toBeUndefined();
    const opf = xml.parse(opfText).package;
    expect(opf["@version"]).toBe("3.0");
    const metadata = opf.metadata;
    expect(metadata["dc:identifier"]["@id"]).toBe(opf["@unique-identifier"]);
    expect(metadata["dc:identifier"]["#text"]).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(metadata["dc:title"]).toBeTruthy();
    expect(metadata["dc:language"]).toBe("en");
    const metas = [metadata.meta].flat() as { "@property"?: string; "#text"?: string }[];
    expect(metas.find((meta) => meta["@property"] === "dcterms:modified")?.["#text"]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );

    const base = path.posix.dirname(opfPath);
    const items = [opf.manifest.item].flat() as {
      "@id": string;
      "@href": string;
      "@media-type": string;
      "@properties"?: string;
    }[];
    // Every file in the manifest is in the container, and every file of the container is in the manifest.
    for (const item of items)
      expect(epub.files[path.posix.join(base, item["@href"])], item["@href"]).toBeDefined();
    const listed = new Set(items.map((item) => path.posix.join(base, item["@href"])));
    for (const file of Object.keys(epub.files))
      if (!["mimetype", "META-INF/container.xml", opfPath].includes(file))
        expect(listed, file).toContain(file);
    // No NCX: the navigation document is the table of contents.
    expect(items.some((item) => item["@media-type"] === "application/x-dtbncx+xml")).toBe(false);
    expect(opf.spine["@toc"]).toBeUndefined();
    const ids = new Set(items.map((item) => item["@id"]));
    const spine = [opf.spine.itemref].flat() as { "@idref": string }[];
    for (const ref of spine) expect(ids).toContain(ref["@idref"]);

    const nav = items.filter((item) => item["@properties"] === "nav");
    expect(nav).toHaveLength(1);
    const navText = epub.text(path.posix.join(base, nav[0]?.["@href"] ?? ""));
    expect(navText).toContain('<nav epub:type="toc"');
    const cover = items.find((item) => item["@properties"] === "cover-image");
    expect(cover?.["@media-type"]).toBe("image/png");
    // The artwork is packed: chapter 1's SVG, shown by an image of the book.
    expect(items.some((item) => item["@media-type"] === "image/svg+xml")).toBe(true);

    const documents = items.filter((item) => item["@media-type"] === "application/xhtml+xml");
    expect(documents.length).toBeGreaterThan(5);
    for (const item of documents)
      expect(xmlProblem(epub.text(path.posix.join(base, item["@href"]))), item["@href"]).toBeUndefined();
  });

  it("holds a reader's free and unlocked chapters in full and a locked one as a link back, with their name", async () => {
    const now = new Date();
    const catalog = await getChapterCatalog();
    const status = (number: number) => {
      const chapter = catalog.byNumber.get(number);
      return chapter && chapterStatus(chapter, now);
    };
    // The demo serial: chapters 1-3 free, 4 and 5 paid, all out.
    expect([1, 2, 3, 4, 5].map(status)).toEqual(["free", "free", "free", "paid", "paid"]);
    const reader = await createReader({ prefix: "epubreader" });
    await grantCoins(reader.id, catalog.byNumber.get(5)?.coinsRequired ?? 0);
    expect(await unlockChapter(reader.id, 5)).toMatchObject({ ok: true });

    const { epub } = await book("/epub", reader.cookie);
    const everything = Object.keys(epub.files)
      .filter((file) => file.endsWith(".xhtml"))
      .map((file) => wordsOf(epub.text(file)))
      .join(" ");
    for (const number of [1, 2, 3, 5]) {
      const text = wordsOf(epub.text(`EPUB/chapter-${number}.xhtml`));
      const paragraphs = await paragraphsOf(number);
      expect(paragraphs.length).toBeGreaterThan(3);
      for (const paragraph of paragraphs) expect(text).toContain(paragraph);
    }
    for (const paragraph of await paragraphsOf(4)) expect(everything).not.toContain(paragraph);
    const fourth = epub.text("EPUB/chapter-4.xhtml");
    expect(fourth).toContain(catalog.byNumber.get(4)?.title);
    expect(fourth).toContain(`href="${getEnv().origin}/chapter/4"`);
    expect(wordsOf(epub.text("EPUB/colophon.xhtml"))).toContain(`This copy was made for ${reader.username}`);
  });

  it("gives a visitor the free chapters 1-3 and every other as a title page", async () => {
    const { epub } = await book("/epub");
    const catalog = await getChapterCatalog();
    for (const number of [1, 2, 3]) {
      const text = wordsOf(epub.text(`EPUB/chapter-${number}.xhtml`));
      for (const paragraph of await paragraphsOf(number)) expect(text).toContain(paragraph);
    }
    for (const chapter of catalog.published.filter((one) => one.number > 3)) {
      const page = epub.text(`EPUB/chapter-${chapter.number}.xhtml`);
      expect(page).toContain('class="locked"');
      expect(page).toContain(`${getEnv().origin}/chapter/${chapter.number}`);
    }
    expect(wordsOf(epub.text("EPUB/colophon.xhtml"))).toContain("This copy was made for a visitor");
  });

  it("gives a member their tier's early chapters in full", async () => {
    const now = new Date();
    const scheduled = (await getChapterCatalog()).published.filter(
      (chapter) => chapterStatus(chapter, now) === "locked",
    );
    const early = scheduled[0];
    if (!early) throw new Error("the demo has an unreleased chapter");
    const member = await createReader({ prefix: "epubmember" });
    // 400 days bought: an Observer at least, who reads three unreleased chapters early.
    await grantMembership(member.id, 400);
    const { epub } = await book("/epub", member.cookie);
    const text = wordsOf(epub.text(`EPUB/chapter-${early.number}.xhtml`));
    for (const paragraph of await paragraphsOf(early.number)) expect(text).toContain(paragraph);
    const { epub: visitors } = await book("/epub");
    expect(visitors.text(`EPUB/chapter-${early.number}.xhtml`)).toContain('class="locked"');
  });

  it("holds one volume's chapters alone; a volume with none, or not a number, is a 404", async () => {
    const catalog = await getChapterCatalog();
    const second = catalog.published.filter((chapter) => chapter.volume.number === 2);
    expect(second.length).toBeGreaterThan(0);
    const { response, epub } = await book("/epub/volume/2");
    expect(response.headers.get("content-disposition")).toMatch(/-volume-2\.epub"$/);
    const chaptersIn = Object.keys(epub.files)
      .map((file) => /^EPUB\/chapter-(\d+)\.xhtml$/.exec(file)?.[1])
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b);
    expect(chaptersIn).toEqual(second.map((chapter) => chapter.number));
    for (const volume of ["99", "0", "-1", "1e3", "abc", "9".repeat(40), "2%00", " 2"]) {
      const refused = await download(`/epub/volume/${volume}`).then(
        () => undefined,
        (thrown: unknown) => thrown as { init?: { status: number } },
      );
      expect(refused?.init?.status, volume).toBe(404);
    }
  });

  it("answers any volume parameter with the book or a 404, never an error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), async (volume) => {
        const status = await download(`/epub/volume/${encodeURIComponent(volume)}`).then(
          (response) => response.status,
          (thrown: { init?: { status: number } }) => thrown.init?.status,
        );
        expect(status).toBe(/^\d{1,10}$/.test(volume) && [1, 2].includes(Number(volume)) ? 200 : 404);
      }),
      { numRuns: 60 },
    );
  });

  it("is built once per reader's access and content: a second download is the kept file; an unlock makes a new one", async () => {
    const reader = await createReader({ prefix: "epubcache" });
    const before = builds.count;
    const first = new Uint8Array(await (await download("/epub", reader.cookie)).arrayBuffer());
    expect(builds.count).toBe(before + 1);
    const second = new Uint8Array(await (await download("/epub", reader.cookie)).arrayBuffer());
    expect(builds.count).toBe(before + 1);
    expect(second).toEqual(first);
    // Two at once: one build.
    await Promise.all([download("/epub/volume/1", reader.cookie), download("/epub/volume/1", reader.cookie)]);
    expect(builds.count).toBe(before + 2);

    await grantCoins(reader.id, 5);
    expect(await unlockChapter(reader.id, 4)).toMatchObject({ ok: true });
    const { epub } = await book("/epub", reader.cookie);
    expect(builds.count).toBe(before + 3);
    expect(epub.text("EPUB/chapter-4.xhtml")).not.toContain('class="locked"');

    // An edit moves the content revision: the next download is a new file holding it.
    const [chapterTwo] = await db()
      .select({ title: chapters.title })
      .from(chapters)
      .where(eq(chapters.number, 2));
    const retitled = `${chapterTwo?.title} ${unique("revised")}`;
    await db().update(chapters).set({ title: retitled }).where(eq(chapters.number, 2));
    const { epub: edited } = await book("/epub", reader.cookie);
    expect(builds.count).toBe(before + 4);
    expect(edited.text("EPUB/chapter-2.xhtml")).toContain(retitled);
  });

  it("refuses a reader past the download limit with 429, a translated message and Retry-After", async () => {
    const reader = await createReader({ prefix: "epubthrottle" });
    for (let i = 0; i < epubDownloadRule.limit; i++)
      expect((await download("/epub/volume/1", reader.cookie)).status).toBe(200);
    const refused = await download("/epub/volume/1", reader.cookie);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(/^Too many downloads\. Please try again in \d+ minutes?\.$/);
    // Another reader is not held by it.
    const other = await createReader({ prefix: "epubthrottle" });
    expect((await download("/epub/volume/1", other.cookie)).status).toBe(200);
  });
});
