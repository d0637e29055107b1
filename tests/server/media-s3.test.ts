import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processImage } from "~/features/uploads/images.server";
import { storeUpload } from "~/features/uploads/store.server";
import { S3MediaStore } from "~/lib/s3-storage.server";
import { startFakeS3 } from "../support/fake-s3";
import { solid } from "../support/images";
import { type RunningServer, spawnServer, startServer } from "../support/server";
import { tempDir } from "../support/temp";

/**
 * The built server with its media in an S3 bucket (ADR 33): the S3_ settings pick the bucket, the demo
 * content's art is imported into it, and /media streams it from there with the same headers as from disk.
 */
if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` before the server tests");

let fakeS3: Awaited<ReturnType<typeof startFakeS3>>;
let server: RunningServer;
const dataDir = tempDir("cc-media-s3-");

const s3Env = () => ({
  S3_BUCKET: fakeS3.bucket,
  S3_REGION: fakeS3.settings.region,
  S3_ACCESS_KEY_ID: fakeS3.settings.accessKeyId,
  S3_SECRET_ACCESS_KEY: fakeS3.settings.secretAccessKey,
  S3_ENDPOINT: fakeS3.endpoint,
  S3_FORCE_PATH_STYLE: "true",
});

beforeAll(async () => {
  fakeS3 = await startFakeS3();
  server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info", ...s3Env() });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fakeS3?.close();
});

describe("media in an S3 bucket", () => {
  it("imports the demo art into the bucket, not into DATA_DIR", () => {
    const keys = [...fakeS3.objects.keys()];
    expect(keys).toContain("gallery/moonglass.svg");
    expect(fakeS3.objects.get("gallery/moonglass.svg")?.contentType).toBe("image/svg+xml");
    expect(fs.existsSync(path.join(dataDir, "media"))).toBe(false);
  });

  it("serves an upload's variant from the bucket for a year, and the art for a day", async () => {
    const image = await processImage(await solid(640, 480).png().toBuffer(), { filename: "cover.png" });
    if (!image.ok) throw new Error(image.code);
    const { variants } = await storeUpload(new S3MediaStore(fakeS3.settings), image);
    const webp = variants.find((variant) => variant.format === "webp" && variant.width === 480);
    const response = await fetch(`${server.url}/media/${webp?.key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const body = Buffer.from(await response.arrayBuffer());
    expect(
      body.equals(image.variants.find((variant) => variant.name === "480.webp")?.data ?? Buffer.alloc(0)),
    ).toBe(true);
    const art = await fetch(`${server.url}/media/gallery/moonglass.svg`);
    expect([art.status, art.headers.get("cache-control")]).toEqual([200, "public, max-age=86400"]);
    expect(await art.text()).toContain("<svg");
  });

  it("logs only JSON lines (the SDK's Node version warning among them)", () => {
    for (const line of server.output().split("\n").filter(Boolean))
      expect(() => JSON.parse(line), line).not.toThrow();
  });

  it("answers a missing or bad path 404 or 400, logged as JSON without a stack", async () => {
    const from = server.output().length;
    expect((await fetch(`${server.url}/media/uploads/0123/480.webp`)).status).toBe(404);
    expect((await fetch(`${server.url}/media/%00`)).status).toBe(400);
    expect((await fetch(`${server.url}/media/%E0%A4%A`)).status).toBe(400);
    for (const line of server.output().slice(from).split("\n").filter(Boolean)) {
      expect(() => JSON.parse(line), line).not.toThrow();
      expect(line).not.toMatch(/ at /);
    }
  });
});

describe("S3 settings at start", () => {
  it("stops a server given part of them, naming what is missing", async () => {
    const partial = spawnServer({ PORT: "0", DATA_DIR: tempDir("cc-media-s3-"), S3_BUCKET: "media" });
    expect(await partial.exited).not.toBe(0);
    expect(partial.output()).toMatch(/S3_REGION: is required when S3 storage is configured/);
    expect(partial.output()).toMatch(/S3_SECRET_ACCESS_KEY: is required/);
  });
});
