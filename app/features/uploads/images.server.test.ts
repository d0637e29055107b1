import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { CAMERA, pngDeclaring, pngWithGps, pngWithText, solid } from "../../../tests/support/images";
import {
  cleanFilename,
  type ProcessedImage,
  processImage,
  sniff,
  type UploadRefusal,
  variantWidths,
} from "./images.server";
import { uploadErrorCodes } from "./limits";

async function accepted(bytes: Uint8Array, filename?: string): Promise<ProcessedImage> {
  const result = await processImage(bytes, { filename });
  if (!result.ok) throw new Error(`refused: ${result.code}`);
  return result;
}

async function refused(bytes: Uint8Array, filename?: string): Promise<UploadRefusal> {
  const result = await processImage(bytes, { filename });
  if (result.ok) throw new Error("accepted");
  return result;
}

describe("processImage: what is accepted", () => {
  it("re-encodes a PNG with EXIF and GPS upright, with no metadata left in any variant", async () => {
    const input = await pngWithGps();
    const before = await sharp(input).metadata();
    expect(before.exif?.length).toBeGreaterThan(0);
    expect(input.includes(CAMERA)).toBe(true);

    const image = await accepted(input, "holiday.png");
    // Orientation 6: the 64×32 pixels are shown 32 wide and 64 high, and stored that way.
    expect([image.width, image.height]).toEqual([32, 64]);
    expect(image.format).toBe("png");
    expect(image.variants.map((variant) => variant.name)).toEqual(["32.avif", "32.webp", "32.png"]);
    for (const variant of image.variants) {
      const after = await sharp(variant.data).metadata();
      expect(after.exif, variant.name).toBeUndefined();
      expect(after.xmp, variant.name).toBeUndefined();
      expect(after.iptc, variant.name).toBeUndefined();
      expect(after.orientation ?? 1, variant.name).toBe(1);
      expect([after.width, after.height], variant.name).toEqual([32, 64]);
      expect(variant.data.includes(CAMERA), variant.name).toBe(false);
      expect(variant.bytes).toBe(variant.data.length);
    }
  });

  it("leaves out what a polyglot hides in a text chunk, and anything after the image's end", async () => {
    const script = "<script>alert(document.domain)</script>";
    const input = Buffer.concat([await pngWithText(script), Buffer.from(`<html>${script}</html>`)]);
    expect((await sharp(input).metadata()).comments).toEqual([{ keyword: "Comment", text: script }]);
    const image = await accepted(input, "innocent.png");
    for (const variant of image.variants) {
      expect(variant.data.includes("<script>"), variant.name).toBe(false);
      expect((await sharp(variant.data).metadata()).comments, variant.name).toBeUndefined();
    }
  });

  it("takes a 1×1 PNG at its own size (never enlarged) in AVIF, WebP and PNG", async () => {
    const image = await accepted(await solid(1, 1).png().toBuffer(), "dot.png");
    expect(
      image.variants.map(({ format, contentType, width, height }) => [format, contentType, width, height]),
    ).toEqual([
      ["avif", "image/avif", 1, 1],
      ["webp", "image/webp", 1, 1],
      ["png", "image/png", 1, 1],
    ]);
    for (const variant of image.variants)
      expect((await sharp(variant.data).metadata()).format).toBe(
        variant.format === "avif" ? "heif" : variant.format,
      );
  });

  it("writes the web widths below the image's own, at the aspect ratio, with a JPEG fallback for a JPEG", async () => {
    const image = await accepted(await solid(2000, 1000).jpeg().toBuffer());
    expect(image.variants.map((variant) => `${variant.name} ${variant.width}×${variant.height}`)).toEqual([
      "480.avif 480×240",
      "480.webp 480×240",
      "480.jpg 480×240",
      "960.avif 960×480",
      "960.webp 960×480",
      "960.jpg 960×480",
      "1600.avif 1600×800",
      "1600.webp 1600×800",
      "1600.jpg 1600×800",
    ]);
    expect(image.variants.find((variant) => variant.name === "1600.jpg")?.contentType).toBe("image/jpeg");
  });

  it("takes WebP, AVIF and GIF by their content, whatever their names, with a fallback browsers read", async () => {
    const webp = await accepted(await solid(40, 20, 4).webp().toBuffer(), "photo.jpg");
    expect(webp.format).toBe("webp");
    expect(webp.variants.map((variant) => variant.name)).toEqual(["40.avif", "40.webp", "40.png"]);
    const avif = await accepted(await solid(40, 20).avif().toBuffer(), "x.gif");
    expect(avif.format).toBe("avif");
    expect(avif.variants.map((variant) => variant.name)).toEqual(["40.avif", "40.webp", "40.jpg"]);
    const gif = await accepted(await solid(30, 10).gif().toBuffer(), "anim");
    expect(gif.format).toBe("gif");
    expect(gif.variants.map((variant) => variant.name)).toEqual(["30.avif", "30.webp", "30.png"]);
  });

  it("keeps the first frame of an animated GIF", async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 20, height: 10, channels: 3, background } })
        .png()
        .toBuffer();
    const animated = await sharp(await Promise.all([frame("#ff0000"), frame("#0000ff")]), {
      join: { animated: true },
    })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const image = await accepted(animated);
    expect([image.width, image.height]).toEqual([20, 10]);
    const still = image.variants.find((variant) => variant.format === "png");
    expect((await sharp(still?.data).metadata()).pages ?? 1).toBe(1);
    const { channels } = await sharp(still?.data).stats();
    expect(channels[0]?.mean).toBeGreaterThan(200);
    expect(channels[2]?.mean).toBeLessThan(50);
  });

  it("names the same bytes with the same hash, and cleans the file name", async () => {
    const bytes = await solid(8, 8).png().toBuffer();
    const first = await accepted(bytes, "../../etc/passwd");
    const second = await accepted(bytes, "C:\\Users\\me\\Mon dessin «final».png");
    expect(first.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(second.hash).toBe(first.hash);
    expect(first.filename).toBe("passwd");
    expect(second.filename).toBe("Mon dessin _final_.png");
    expect(cleanFilename("\u0000\u202e.gnp.exe")).toBe("_.gnp.exe");
    expect(cleanFilename("")).toBe("image");
    expect(cleanFilename("a".repeat(500))).toHaveLength(120);
  });

  it("answers uploads made at the same time, each its own (they take turns)", async () => {
    const inputs = await Promise.all([solid(30, 20).png().toBuffer(), solid(20, 30).jpeg().toBuffer()]);
    const [png, cut, jpeg] = await Promise.all([
      processImage(inputs[0] ?? Buffer.alloc(0)),
      processImage((inputs[1] ?? Buffer.alloc(0)).subarray(0, 200)),
      processImage(inputs[1] ?? Buffer.alloc(0)),
    ]);
    expect(png?.ok && [png.format, png.width, png.height]).toEqual(["png", 30, 20]);
    expect(cut?.ok === false && cut.code).toBe("corrupt");
    expect(jpeg?.ok && [jpeg.format, jpeg.width, jpeg.height]).toEqual(["jpeg", 20, 30]);
  });

  it("lists widths without ever enlarging", () => {
    expect(variantWidths(1)).toEqual([1]);
    expect(variantWidths(480)).toEqual([480]);
    expect(variantWidths(481)).toEqual([480, 481]);
    expect(variantWidths(1200)).toEqual([480, 960, 1200]);
    expect(variantWidths(8000)).toEqual([480, 960, 1600]);
  });
});

describe("processImage: what is refused", () => {
  it("refuses an HTML page named .png as not an image", async () => {
    const html = Buffer.from(
      "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>",
    );
    expect(await refused(html, "x.png")).toMatchObject({
      code: "not-an-image",
      messageKey: "uploads.errors.not-an-image",
    });
  });

  it("refuses an SVG with a script, with or without an XML declaration, whatever its name", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    expect((await refused(Buffer.from(svg), "cute.png")).code).toBe("svg");
    expect((await refused(Buffer.from(`\uFEFF<?xml version="1.0"?>\n${svg}`), "cute.svg")).code).toBe("svg");
  });

  it("refuses 40 MB with its size and the limit, before reading it", async () => {
    const big = Buffer.alloc(40 * 1024 * 1024);
    (await solid(2, 2).png().toBuffer()).copy(big);
    expect(await refused(big, "huge.png")).toEqual({
      ok: false,
      code: "too-large",
      messageKey: "uploads.errors.too-large",
      values: { megabytes: 40, limit: 10 },
    });
  });

  it("refuses an empty file, a truncated PNG and a PNG with a broken body", async () => {
    expect((await refused(new Uint8Array())).code).toBe("empty");
    const png = await solid(300, 200).png({ compressionLevel: 0 }).toBuffer();
    expect((await refused(png.subarray(0, Math.floor(png.length / 2)))).code).toBe("corrupt");
    expect((await refused(png.subarray(0, 20))).code).toBe("corrupt");
    const jpeg = await solid(300, 200).jpeg().toBuffer();
    expect((await refused(jpeg.subarray(0, Math.floor(jpeg.length / 3)))).code).toBe("corrupt");
  });

  it("refuses a pixel bomb by its declared size, without decoding it", async () => {
    const bomb = pngDeclaring(100_000, 100_000);
    expect(bomb.length).toBeLessThan(1024);
    expect(await refused(bomb)).toMatchObject({
      code: "too-wide",
      values: { width: 100_000, height: 100_000, limit: 8000 },
    });
    expect(await refused(pngDeclaring(7000, 7000))).toMatchObject({
      code: "too-many-pixels",
      values: { megapixels: 49, limit: 40 },
    });
    expect((await refused(await solid(8001, 2).png().toBuffer())).code).toBe("too-wide");
  });

  it("refuses other image formats and documents: TIFF, HEIC, PDF, BMP", async () => {
    expect((await refused(await solid(4, 4).tiff().toBuffer(), "a.png")).code).toBe("unsupported-format");
    const heicLike = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from("ftypheic\0\0\0\0mif1heic"),
      Buffer.alloc(64),
    ]);
    expect((await refused(heicLike)).code).toBe("unsupported-format");
    expect((await refused(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj"))).code).toBe("unsupported-format");
    expect((await refused(Buffer.from("BM\x36\x00\x00\x00"))).code).toBe("unsupported-format");
  });

  it("refuses bytes that start like one format and are another (a GIF body behind a PNG signature)", async () => {
    const gif = await solid(4, 4).gif().toBuffer();
    const disguised = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), gif]);
    expect((await refused(disguised)).code).toBe("corrupt");
  });
});

describe("processImage never throws", () => {
  const isAnswer = (result: ProcessedImage | UploadRefusal) =>
    result.ok
      ? result.variants.length > 0 && result.variants.every((variant) => variant.bytes > 0)
      : uploadErrorCodes.includes(result.code) && result.messageKey === `uploads.errors.${result.code}`;

  it("answers random bytes with a refusal", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (bytes) => {
        const result = await processImage(bytes, { filename: "random.png" });
        return !result.ok && isAnswer(result);
      }),
      { numRuns: 300 },
    );
  });

  it("answers damaged images (bytes overwritten, cut short) with an image or a refusal", async () => {
    const seeds = await Promise.all([
      solid(24, 16).png().toBuffer(),
      solid(24, 16).jpeg().toBuffer(),
      solid(24, 16, 4).webp().toBuffer(),
      solid(24, 16).gif().toBuffer(),
      solid(24, 16).avif().toBuffer(),
    ]);
    const damage = fc.record({
      seed: fc.integer({ min: 0, max: seeds.length - 1 }),
      edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
      cut: fc.option(fc.nat()),
    });
    await fc.assert(
      fc.asyncProperty(damage, async ({ seed, edits, cut }) => {
        const bytes = Buffer.from(seeds[seed] ?? []);
        for (const [at, value] of edits) bytes[at % bytes.length] = value;
        const damaged = cut === null ? bytes : bytes.subarray(0, cut % bytes.length);
        return isAnswer(await processImage(damaged));
      }),
      { numRuns: 150 },
    );
  });
});

describe("sniff", () => {
  it("names formats by their first bytes", () => {
    expect(sniff(Buffer.from("GIF89a...."))).toBe("gif");
    expect(sniff(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("webp");
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(sniff(Buffer.from("\0\0\0\x1cftypavif\0\0\0\0mif1miaf"))).toBe("avif");
    expect(sniff(Buffer.from("hello"))).toBe("not-an-image");
  });
});
