import crypto from "node:crypto";
import sharp, { type Metadata, type OutputInfo, type Sharp } from "sharp";
import { logger } from "~/lib/logger.server";
import {
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_PIXELS,
  UPLOAD_MAX_SIDE,
  UPLOAD_WIDTHS,
  type UploadErrorCode,
} from "./limits";

type Format = "png" | "jpeg" | "webp" | "gif" | "avif";
/** What the web sizes are written as: the two modern formats and one every browser reads. */
export type VariantFormat = "avif" | "webp" | "png" | "jpeg";

export type ImageVariant = {
  /** The variant's file name within the upload: `<width>.<extension>` (`960.webp`). */
  name: string;
  format: VariantFormat;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
  data: Buffer;
};

export type ProcessedImage = {
  ok: true;
  /** SHA-256 of the uploaded bytes (hex, 32 characters): the upload's key, the same for the same file. */
  hash: string;
  /** The name it was uploaded under, cleaned and capped (never trusted for anything but a label). */
  filename: string;
  /** What the bytes were, by their content. */
  format: Format;
  /** The upright image's size (EXIF orientation applied) before any resizing. */
  width: number;
  height: number;
  bytes: number;
  variants: ImageVariant[];
};

export type UploadRefusal = {
  ok: false;
  code: UploadErrorCode;
  /** The message's key in the catalogue and its values: `t(refusal.messageKey, refusal.values)`. */
  messageKey: `uploads.errors.${UploadErrorCode}`;
  values: Record<string, number>;
};

const MB = 1024 * 1024;
/** The widest variant written. */
const maxWidth = UPLOAD_WIDTHS[UPLOAD_WIDTHS.length - 1] ?? UPLOAD_MAX_SIDE;

function refuse(code: UploadErrorCode, values: Record<string, number> = {}): UploadRefusal {
  return { ok: false, code, messageKey: `uploads.errors.${code}`, values };
}

const tooManyPixels = (width: number, height: number) =>
  refuse("too-many-pixels", {
    megapixels: Math.round((width * height) / 100_000) / 10,
    limit: UPLOAD_MAX_PIXELS / 1_000_000,
  });

function startsWith(bytes: Buffer, signature: number[] | string, at = 0): boolean {
  const expected = typeof signature === "string" ? Buffer.from(signature, "latin1") : Buffer.from(signature);
  return bytes.length >= at + expected.length && bytes.subarray(at, at + expected.length).equals(expected);
}

/** The brands an ISO-BMFF file (AVIF, HEIC) declares in its leading `ftyp` box. */
function isoBrands(bytes: Buffer): string[] | undefined {
  if (!startsWith(bytes, "ftyp", 4)) return undefined;
  const size = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
  const brands = [bytes.toString("latin1", 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(bytes.toString("latin1", at, at + 4));
  return brands;
}

/**
 * What the bytes are, by their first bytes: one of the accepted formats, or why not. The bytes reach the
 * image decoders only when they start as an accepted format does, so an SVG, a PDF or anything else never
 * meets libvips' other loaders (librsvg, poppler, ImageMagick), whatever the file is called.
 */
export function sniff(bytes: Buffer): Format | UploadErrorCode {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, "GIF87a") || startsWith(bytes, "GIF89a")) return "gif";
  if (startsWith(bytes, "RIFF") && startsWith(bytes, "WEBP", 8)) return "webp";
  const brands = isoBrands(bytes);
  if (brands)
    return brands.some((brand) => brand === "avif" || brand === "avis") ? "avif" : "unsupported-format";
  // TIFF (both byte orders), BMP, ICO, PDF, Photoshop, JPEG XL (codestream and container), JPEG 2000:
  // images or documents the site does not take.
  const others = [
    [0x49, 0x49, 0x2a, 0x00],
    [0x4d, 0x4d, 0x00, 0x2a],
    "BM",
    [0, 0, 1, 0],
    "%PDF",
    "8BPS",
    [0xff, 0x0a],
    [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20],
    [0, 0, 0, 0x0c, 0x6a, 0x50, 0x20, 0x20],
  ];
  if (others.some((signature) => startsWith(bytes, signature))) return "unsupported-format";
  const head = bytes.toString("utf8", 0, 4096).replace(/^\uFEFF/, "");
  if (/<svg[\s>]/i.test(head)) return "svg";
  return "not-an-image";
}

/** The upload's name as a label: no folders, no control characters, letters, digits and `._- ` only, capped. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}._ -]+/gu, "_")
    .replace(/\s+/g, " ")
    .replace(/^[.\s]+/, "")
    .trim();
  return Array.from(cleaned).slice(0, 120).join("") || "image";
}

/** The widths written: each web width narrower than the image, and the image's own up to the largest. */
export function variantWidths(width: number): number[] {
  const largest = Math.min(width, maxWidth);
  return [...UPLOAD_WIDTHS.filter((candidate) => candidate < largest), largest];
}

/** The format every browser reads: JPEG stays JPEG and PNG stays PNG; the others become PNG or JPEG. */
function fallbackFormat(format: Format, hasAlpha: boolean): VariantFormat {
  if (format === "jpeg" || format === "png") return format;
  return hasAlpha || format === "gif" ? "png" : "jpeg";
}

const extensions: Record<VariantFormat, string> = { avif: "avif", webp: "webp", png: "png", jpeg: "jpg" };

function encoder(image: Sharp, format: VariantFormat): Sharp {
  switch (format) {
    case "avif":
      return image.avif({ quality: 55, effort: 3 });
    case "webp":
      return image.webp({ quality: 80, effort: 4 });
    case "jpeg":
      return image.jpeg({ quality: 82, mozjpeg: true });
    case "png":
      return image.png({ compressionLevel: 9 });
  }
}

let queue: Promise<unknown> = Promise.resolve();
/**
 * One image decoded or encoded at a time in this process: a 40 MP upload takes ~150 MB while it is worked
 * on, and two at once would take twice that. Uploads are the author's, rarely two at once; readers wait on none.
 */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const turn = queue.then(work, work);
  queue = turn.catch(() => undefined);
  return turn;
}

/** Decoder settings for untrusted bytes: the first frame, errors (a cut file) fatal, a pixel ceiling. */
const decoding = { failOn: "error", limitInputPixels: UPLOAD_MAX_PIXELS, pages: 1 } as const;

/**
 * Checks an upload by its content and writes it in web sizes (ADR 33). Never throws for anything in the
 * bytes: every refusal is a value with its message key. Accepted: PNG, JPEG, WebP, GIF (its first frame)
 * and AVIF, up to 10 MB, 8000 px a side and 40 megapixels. Output: for each width of `variantWidths`, AVIF,
 * WebP and a fallback in the original's format, upright (EXIF orientation applied) with every metadata
 * block (EXIF, GPS, XMP, IPTC, ICC, comments) gone: the pixels are decoded, converted to sRGB and encoded
 * anew, so nothing of the file but its picture is kept.
 */
export async function processImage(
  input: Uint8Array,
  options: { filename?: string } = {},
): Promise<ProcessedImage | UploadRefusal> {
  const limitMb = UPLOAD_MAX_BYTES / MB;
  if (input.length === 0) return refuse("empty");
  if (input.length > UPLOAD_MAX_BYTES)
    return refuse("too-large", { megabytes: Math.ceil((input.length / MB) * 10) / 10, limit: limitMb });
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.length);
  const format = sniff(bytes);
  if (!(format === "png" || format === "jpeg" || format === "gif" || format === "webp" || format === "avif"))
    return refuse(format);

  let metadata: Metadata;
  try {
    // The header only; the pixel ceiling is checked here with a clearer answer than the decoder's.
    metadata = await sharp(bytes, { ...decoding, limitInputPixels: false }).metadata();
  } catch {
    return refuse("corrupt");
  }
  const decoded =
    metadata.format === "heif" ? (metadata.compression === "av1" ? "avif" : "heic") : metadata.format;
  if (decoded !== format) return refuse("corrupt");
  const { width, height } = metadata.autoOrient;
  if (!(width > 0 && height > 0)) return refuse("corrupt");
  if (width > UPLOAD_MAX_SIDE || height > UPLOAD_MAX_SIDE)
    return refuse("too-wide", { width, height, limit: UPLOAD_MAX_SIDE });
  if (width * height > UPLOAD_MAX_PIXELS) return tooManyPixels(width, height);

  let master: { data: Buffer; info: OutputInfo };
  try {
    // Decoded once, whole (a cut or corrupt file fails here), upright and at the largest width written.
    master = await oneAtATime(() =>
      sharp(bytes, decoding)
        .autoOrient()
        .resize({ width: Math.min(width, maxWidth), withoutEnlargement: true })
        .toColourspace("srgb")
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) return tooManyPixels(width, height);
    // A file that starts well and breaks further on: the client's, logged at debug (the decoder's first line).
    const reason = String(error).split("\n")[0]?.slice(0, 200);
    logger.debug({ code: "upload-decode-failed", format, width, height, reason }, "upload refused");
    return refuse("corrupt");
  }
  // From here on the input is pixels the decoder vouched for: an encoder's failure is the server's, thrown.
  const variants = await oneAtATime(() => encodeVariants(master, format, variantWidths(width)));
  return {
    ok: true,
    hash: crypto.createHash("sha256").update(bytes).digest("hex").slice(0, 32),
    filename: cleanFilename(options.filename),
    format,
    width,
    height,
    bytes: bytes.length,
    variants,
  };
}

async function encodeVariants(
  master: { data: Buffer; info: OutputInfo },
  format: Format,
  widths: number[],
): Promise<ImageVariant[]> {
  const { width, height, channels } = master.info;
  const raw = { width, height, channels };
  const formats: VariantFormat[] = ["avif", "webp", fallbackFormat(format, channels === 4)];
  const variants: ImageVariant[] = [];
  for (const target of widths) {
    for (const output of formats) {
      const resized = sharp(master.data, { raw }).resize({ width: target, withoutEnlargement: true });
      const { data, info } = await encoder(resized, output).toBuffer({ resolveWithObject: true });
      variants.push({
        name: `${target}.${extensions[output]}`,
        format: output,
        contentType: `image/${output}`,
        width: info.width,
        height: info.height,
        bytes: data.length,
        data,
      });
    }
  }
  return variants;
}
