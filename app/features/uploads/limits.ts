/**
 * What an upload may be (ADR 33): shared by the server's checks, the request body limit (server/body-limit.ts)
 * and, later, the admin's form, which can say the limits before a byte is sent.
 */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Room for a multipart body's boundaries, headers and a few small fields around the file. */
export const UPLOAD_BODY_OVERHEAD = 256 * 1024;
/** Neither side may be longer, whatever the total. */
export const UPLOAD_MAX_SIDE = 8000;
/** Width × height: what a decoded image may hold (a 40 MP RGBA image is 160 MB of pixels). */
export const UPLOAD_MAX_PIXELS = 40_000_000;
/** The widths pages ask for (srcset); an image narrower than one is kept at its own width, never enlarged. */
export const UPLOAD_WIDTHS = [480, 960, 1600] as const;
/** The formats accepted, by what the bytes are (never by the file's name). */
export const UPLOAD_FORMATS = ["png", "jpeg", "webp", "gif", "avif"] as const;

/** Why an upload is refused: each one a message in the `uploads` namespace (`uploads.errors.<code>`). */
export const uploadErrorCodes = [
  "empty",
  "too-large",
  "not-an-image",
  "svg",
  "unsupported-format",
  "corrupt",
  "too-many-pixels",
  "too-wide",
] as const;
export type UploadErrorCode = (typeof uploadErrorCodes)[number];
