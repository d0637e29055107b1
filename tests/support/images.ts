import zlib from "node:zlib";
import sharp from "sharp";

/** Test images made by sharp (real encoders), and hand-built files no encoder would write. */
export const solid = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({
    create: {
      width,
      height,
      channels,
      background: { r: 180, g: 30, b: 40, alpha: channels === 4 ? 0.5 : 1 },
    },
  });

/** A camera make unlikely to appear in an image by chance: found in the input, never in an output. */
export const CAMERA = "CovenantTestCam9000";

/** A PNG whose EXIF holds a camera, a GPS position and orientation 6 (shown turned a quarter clockwise). */
export const pngWithGps = (width = 64, height = 32) =>
  solid(width, height)
    .png()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: CAMERA, Copyright: "Somebody" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "48/1 51/1 24/1",
        GPSLongitudeRef: "E",
        GPSLongitude: "2/1 21/1 3/1",
      },
    })
    .toBuffer();

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small, valid-looking PNG whose header declares a huge image: a decompression bomb's shape. */
export function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(Buffer.alloc(64 * 1024))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A real PNG carrying a text chunk after its header: what a polyglot hides its HTML or script in. */
export async function pngWithText(text: string): Promise<Buffer> {
  const png = await solid(16, 16).png().toBuffer();
  const afterHeader = 8 + 4 + 4 + 13 + 4; // signature, then IHDR's length, type, data and CRC
  const chunk = pngChunk(
    "tEXt",
    Buffer.concat([Buffer.from("Comment\0", "latin1"), Buffer.from(text, "latin1")]),
  );
  return Buffer.concat([png.subarray(0, afterHeader), chunk, png.subarray(afterHeader)]);
}
