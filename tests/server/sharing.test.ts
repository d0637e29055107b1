import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type RunningServer, spawnServer, waitUntilReady } from "../support/server";

/**
 * What search engines and link previews read (ADR 46), over HTTP from the built server:
 * every public page's description, canonical address, Open Graph tags and JSON-LD; pictures that answer as
 * images; no word of a paid or scheduled chapter's text anywhere in them; noindex on private pages.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-sharing-"));
let server: RunningServer;
let origin = "";

beforeAll(async () => {
  const port = await freePort();
  // An origin unlike the address the test connects to: every absolute address must come from it.
  origin = "https://covenant.example";
  server = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_ORIGIN: origin,
    PAYMENT_PROVIDER: "test",
  });
  server.url = `http://127.0.0.1:${port}`;
  await waitUntilReady(server);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The head's tags as a list of [name or property, content], the canonical address and the JSON-LD. */
async function head(pathname: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + pathname, { headers });
  expect(response.status).toBe(200);
  const html = await response.text();
  const tags = [...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"/g)].map(
    ([, key, content]) => [key, decode(content ?? "")] as const,
  );
  const get = (key: string) => tags.find(([name]) => name === key)?.[1];
  const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
  const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(
    ([, text]) => JSON.parse(text ?? ""),
  );
  return { html, tags, get, canonical, jsonLd };
}

/** Words of a chapter's text in content/ (its Markdown after the front matter), as 6-word runs. */
function phrasesOf(number: number): string[] {
  const text = fs.readFileSync(`content/chapters/${number}.md`, "utf8").split(/^---$/m)[2] ?? "";
  const words = text
    .replace(/[*_#>"“”]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  const phrases: string[] = [];
  for (let i = 0; i + 6 <= words.length; i += 6) phrases.push(words.slice(i, i + 6).join(" "));
  return phrases;
}

describe("pages' tags for search engines and previews", () => {
  const pages = [
    "/",
    "/chapter/1",
    "/chapter/4",
    "/chapter/10",
    "/shop/product/1",
    "/wiki",
    "/toc",
    "/about",
  ];
  it.each(pages)(
    "%s has a description, canonical address, Open Graph tags and a picture that answers",
    async (page) => {
      const { get, canonical } = await head(page);
      expect(get("description")?.length).toBeGreaterThan(10);
      expect(canonical).toBe(`${origin}${page === "/" ? "/" : page}`);
      expect(get("og:title")).toBeTruthy();
      expect(get("og:url")).toBe(canonical);
      expect(get("og:site_name")).toBe("Crimson Covenant");
      expect(get("og:locale")).toBe("en_US");
      expect(get("twitter:card")).toBe("summary_large_image");
      const image = get("og:image") ?? "";
      expect(image.startsWith(`${origin}/`)).toBe(true);
      const picture = await fetch(server.url + image.slice(origin.length));
      expect(picture.status).toBe(200);
      expect(picture.headers.get("content-type")).toMatch(/^image\/(png|jpeg)$/);
      expect(picture.headers.get("cache-control")).toMatch(/public/);
    },
  );

  it("takes the origin from the configuration, never from a forged Host header", async () => {
    const { html } = await head("/chapter/1", { "x-forwarded-host": "evil.example", host: "evil.example" });
    expect(html).not.toContain("evil.example");
  });

  it("describes a free chapter by its opening, and gives its JSON-LD as a free chapter of the book", async () => {
    const { get, jsonLd } = await head("/chapter/1");
    expect(get("description")).toMatch(/^The ash came down at four o'clock/);
    const graph = jsonLd[0]["@graph"];
    const chapter = graph.find((thing: { "@type": string }) => thing["@type"] === "Chapter");
    expect(chapter).toMatchObject({
      name: "The Tithe Ledger",
      position: 1,
      url: `${origin}/chapter/1`,
      isAccessibleForFree: true,
      isPartOf: { "@type": "Book", url: `${origin}/` },
    });
    expect(graph.find((thing: { "@type": string }) => thing["@type"] === "BreadcrumbList")).toBeTruthy();
  });

  it.each([4, 10])(
    "says nothing of chapter %i's text (paid, or not yet released) in its tags or JSON-LD",
    async (number) => {
      const { tags, jsonLd, get } = await head(`/chapter/${number}`);
      const said = JSON.stringify([tags, jsonLd]);
      for (const phrase of phrasesOf(number)) expect(said).not.toContain(phrase);
      expect(get("description")).toMatch(new RegExp(`^Chapter ${number} of Crimson Covenant: `));
      expect(get("og:image")).toBe(`${origin}/card/chapter/${number}.png`);
      const chapter = jsonLd[0]["@graph"][0];
      expect(chapter.isAccessibleForFree).toBe(false);
      expect(chapter.hasPart).toMatchObject({ "@type": "WebPageElement", isAccessibleForFree: false });
    },
  );

  it("gives a product its offer (price, currency, availability) and breadcrumbs", async () => {
    const { jsonLd } = await head("/shop/product/1");
    const [product, trail] = jsonLd[0]["@graph"];
    expect(product["@type"]).toBe("Product");
    expect(product.offers.price).toMatch(/^\d+\.\d\d$/);
    expect(product.offers.priceCurrency).toMatch(/^[A-Z]{3}$/);
    expect(product.offers.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock|PreOrder)$/);
    expect(trail.itemListElement.at(-1).item).toBe(`${origin}/shop/product/1`);
  });

  it("gives the table of contents the book with its released chapters, none scheduled", async () => {
    const { jsonLd } = await head("/toc");
    const book = jsonLd[0];
    expect(book["@type"]).toBe("Book");
    const positions = book.hasPart.map((part: { position: number }) => part.position);
    expect(positions).toContain(1);
    expect(positions).not.toContain(10);
  });

  it("keeps only meaningful query parameters in the canonical address", async () => {
    expect((await head("/shop?category=prints&utm_source=x")).canonical).toBe(
      `${origin}/shop?category=prints`,
    );
    expect((await head("/chapters")).canonical).toBe(`${origin}/toc`);
  });

  it("marks private pages noindex, with no Open Graph tags", async () => {
    for (const page of ["/login", "/register", "/forgot-password"]) {
      const response = await fetch(server.url + page);
      const html = await response.text();
      expect(html, page).toContain('<meta name="robots" content="noindex"/>');
      expect(html, page).not.toContain('property="og:');
    }
    const { html } = await head("/chapter/1");
    expect(html).not.toContain("noindex");
  });

  it("answers the cards as PNG, and 404 for a chapter that does not exist", async () => {
    const card = await fetch(`${server.url}/card/chapter/4.png`);
    expect(card.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await card.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    for (const missing of ["/card/chapter/999.png", "/card/chapter/x.png", "/card/chapter/1.jpg"])
      expect((await fetch(server.url + missing)).status).toBe(404);
  });
});
