import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { auditLog, uploads, users } from "#db/schema";
import { processImage } from "~/features/uploads/images.server";
import { storeUpload, uploadImage } from "~/features/uploads/store.server";
import { describeError } from "~/lib/errors";
import { setMediaStore } from "~/lib/media-store.server";
import { S3MediaStore } from "~/lib/s3-storage.server";
import { LocalMediaStore, type MediaStore } from "~/lib/storage.server";
import { action as uploadAction } from "~/routes/admin/uploads";
import { serveMedia } from "../../server/media";
import { statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";
import { startFakeS3 } from "../support/fake-s3";
import { pngWithGps, solid } from "../support/images";
import { tempDir } from "../support/temp";

/**
 * The media stores (ADR 33): the local directory and an S3 bucket (the real AWS client against a fake S3
 * server) keep the same contract; uploads are written once under content-addressed keys and recorded; /media
 * serves both with the same headers.
 */
let fakeS3: Awaited<ReturnType<typeof startFakeS3>>;
beforeAll(async () => {
  fakeS3 = await startFakeS3({ pageSize: 2 });
});
afterAll(() => fakeS3?.close());

const stores: [string, () => MediaStore][] = [
  ["local directory", () => new LocalMediaStore(tempDir("cc-media-"))],
  ["S3 bucket", () => new S3MediaStore(fakeS3.settings)],
];

async function emptied(store: MediaStore): Promise<MediaStore> {
  for (const key of await store.list()) await store.delete(key);
  return store;
}

describe.each(stores)("the media store: %s", (_name, make) => {
  it("puts, gets, heads, lists by prefix and deletes", async () => {
    const store = await emptied(make());
    const bytes = Buffer.from("not really a png, the store does not look");
    expect(await store.put("art/one.png", bytes)).toBe(true);
    expect(await store.put("art/one.png", bytes)).toBe(false);
    expect(await store.put("art/two.svg", Buffer.from("<svg/>"))).toBe(true);
    expect(await store.put("uploads/abc/480.webp", Buffer.from("webp"), "image/webp")).toBe(true);
    expect((await store.get("art/one.png"))?.equals(bytes)).toBe(true);
    expect(await store.head("art/one.png")).toMatchObject({ bytes: bytes.length, contentType: "image/png" });
    expect(await store.head("uploads/abc/480.webp")).toMatchObject({ contentType: "image/webp" });
    expect(await store.get("art/none.png")).toBeUndefined();
    expect(await store.head("art/none.png")).toBeUndefined();
    expect(await store.open("art/none.png")).toBeUndefined();
    // Three keys: more than the fake's page of two, so the S3 store follows a continuation token.
    expect(await store.list()).toEqual(["art/one.png", "art/two.svg", "uploads/abc/480.webp"]);
    expect(await store.list("art/")).toEqual(["art/one.png", "art/two.svg"]);
    const opened = await store.open("art/two.svg");
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.body ?? []) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString()).toBe("<svg/>");
    await store.delete("art/one.png");
    await store.delete("art/one.png");
    expect(await store.list()).toEqual(["art/two.svg", "uploads/abc/480.webp"]);
  });

  it("changes a key's bytes when they change, and refuses keys that climb out", async () => {
    const store = await emptied(make());
    await store.put("art/cover.png", Buffer.from("first"));
    expect(await store.put("art/cover.png", Buffer.from("other"))).toBe(true);
    expect((await store.get("art/cover.png"))?.toString()).toBe("other");
    for (const key of ["../escape.png", "", "a/\0b", "a\\..\\b"]) {
      await expect(store.put(key, Buffer.from("x")), key).rejects.toThrow(/Invalid media key/);
    }
  });

  it("stores an upload's variants once under uploads/<hash>/", async () => {
    const store = await emptied(make());
    const image = await processImage(await pngWithGps(), { filename: "map.png" });
    if (!image.ok) throw new Error(image.code);
    const first = await storeUpload(store, image);
    expect(first.written).toBe(3);
    expect(first.prefix).toBe(`uploads/${image.hash}/`);
    expect(await store.list("uploads/")).toEqual(first.variants.map((variant) => variant.key).sort());
    const again = await processImage(await pngWithGps(), { filename: "other-name.png" });
    if (!again.ok) throw new Error(again.code);
    expect((await storeUpload(store, again)).written).toBe(0);
  });
});

describe("the fake S3 server", () => {
  it("was spoken to with signed requests only, and refuses an anonymous one", async () => {
    expect(fakeS3.requests.length).toBeGreaterThan(10);
    expect(fakeS3.requests.every((request) => request.authorization?.startsWith("AWS4-HMAC-SHA256 "))).toBe(
      true,
    );
    const anonymous = await fetch(`${fakeS3.endpoint}/${fakeS3.bucket}/art/two.svg`);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).toContain("<Code>AccessDenied</Code>");
  });

  it("makes the S3 store throw for a bucket that does not exist (an error, not a missing key)", async () => {
    const store = new S3MediaStore({ ...fakeS3.settings, bucket: "nobucket" });
    await expect(store.list()).rejects.toThrow();
    await expect(store.put("a.png", Buffer.from("x"))).rejects.toThrow();
  });
});

describe.each(drivers)("uploadImage with the database (%s)", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
    await handle.db.delete(uploads);
  });
  afterAll(() => handle?.close());

  it("refuses 40 MB with a clear message, storing and recording nothing", async () => {
    const store = new LocalMediaStore(tempDir("cc-media-"));
    const result = await uploadImage(handle.db, store, Buffer.alloc(40 * 1024 * 1024), {
      filename: "big.png",
    });
    expect(result).toMatchObject({ ok: false, code: "too-large", values: { megabytes: 40, limit: 10 } });
    expect(await store.list()).toEqual([]);
    expect(await handle.db.select().from(uploads)).toEqual([]);
  });

  it("refuses HTML named .png and an SVG with a script, storing nothing", async () => {
    const store = new LocalMediaStore(tempDir("cc-media-"));
    for (const [bytes, code] of [
      ["<html><script>alert(1)</script></html>", "not-an-image"],
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "svg"],
    ]) {
      expect(
        await uploadImage(handle.db, store, Buffer.from(bytes ?? ""), { filename: "x.png" }),
      ).toMatchObject({ code });
    }
    expect(await store.list()).toEqual([]);
    expect(await handle.db.select().from(uploads)).toEqual([]);
  });

  it("records a PNG once with its size and variants, whoever uploads it again", async () => {
    const store = new S3MediaStore(fakeS3.settings);
    const bytes = await solid(1200, 600).png().toBuffer();
    const first = await uploadImage(handle.db, store, bytes, { filename: "banner.png" });
    if (!first.ok) throw new Error(first.code);
    expect(first.created).toBe(true);
    expect(first.upload).toMatchObject({
      originalFilename: "banner.png",
      contentType: "image/png",
      width: 1200,
      height: 600,
      bytes: bytes.length,
      keyPrefix: `uploads/${first.upload.hash}/`,
      createdBy: null,
    });
    expect(
      first.upload.variants.map(
        (variant) => `${variant.key.split("/").pop()} ${variant.width}×${variant.height}`,
      ),
    ).toEqual([
      "480.avif 480×240",
      "480.webp 480×240",
      "480.png 480×240",
      "960.avif 960×480",
      "960.webp 960×480",
      "960.png 960×480",
      "1200.avif 1200×600",
      "1200.webp 1200×600",
      "1200.png 1200×600",
    ]);
    const puts = fakeS3.requests.filter((request) => request.method === "PUT").length;
    const second = await uploadImage(handle.db, store, bytes, { filename: "again.png" });
    if (!second.ok) throw new Error(second.code);
    expect(second.created).toBe(false);
    expect(second.upload.id).toBe(first.upload.id);
    expect(second.upload.originalFilename).toBe("banner.png");
    expect(fakeS3.requests.filter((request) => request.method === "PUT").length).toBe(puts);
    expect(await handle.db.select().from(uploads)).toHaveLength(1);
  });

  it("records one row when the same file is uploaded twice at once", async () => {
    const store = new LocalMediaStore(tempDir("cc-media-"));
    const bytes = await solid(50, 40).jpeg().toBuffer();
    const both = await Promise.all([
      uploadImage(handle.db, store, bytes, { filename: "a.jpg" }),
      uploadImage(handle.db, store, bytes, { filename: "b.jpg" }),
    ]);
    const created = both.map((result) => result.ok && result.created).sort();
    expect(created).toEqual([false, true]);
    const ids = new Set(both.map((result) => result.ok && result.upload.id));
    expect(ids.size).toBe(1);
    expect(await store.list()).toHaveLength(3);
  });
});

describe.each(drivers)("an author's upload in the admin (%s)", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    setMediaStore(new LocalMediaStore(tempDir("cc-media-")));
  });
  afterAll(() => {
    setMediaStore(undefined);
    return handle?.close();
  });

  const upload = (cookie: string, file: File) => {
    const form = new FormData();
    form.set("file", file);
    const request = new Request("http://localhost/admin/uploads", {
      method: "POST",
      headers: { cookie },
      body: form,
    });
    return statusOf(() => uploadAction({ request, params: {}, context: {} } as never));
  };
  const entriesFor = (userId: number) =>
    handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, userId), eq(auditLog.action, "upload.create")));

  it("writes a new image to the audit log with what it is; the same file again and a refusal write nothing", async () => {
    const author = await createReader({ prefix: "uploader" });
    await handle.db.update(users).set({ role: "author" }).where(eq(users.id, author.id));
    const bytes = await solid(64, 48).png().toBuffer();

    expect(await upload(author.cookie, new File([bytes], "moon.png"))).toMatchObject({ status: 200 });
    const [entry, ...more] = await entriesFor(author.id);
    expect(more).toEqual([]);
    const [row] = await handle.db
      .select()
      .from(uploads)
      .where(eq(uploads.id, Number(entry?.subjectId)));
    expect(entry).toMatchObject({ via: "admin", subjectType: "upload", before: null });
    expect(entry?.after).toEqual({
      filename: "moon.png",
      contentType: "image/png",
      width: 64,
      height: 48,
      bytes: bytes.length,
      hash: row?.hash,
    });

    expect(await upload(author.cookie, new File([bytes], "again.png"))).toMatchObject({ status: 200 });
    const refused = await upload(author.cookie, new File(["<html></html>"], "page.png"));
    expect(refused.status).toBe(400);
    expect(await entriesFor(author.id)).toHaveLength(1);
  });
});

describe.each(stores)("/media from the %s", (_name, make) => {
  let origin: string;
  let server: http.Server;
  let store: MediaStore;
  let key: string;
  let variant: Buffer;
  beforeAll(async () => {
    store = await emptied(make());
    const image = await processImage(await solid(40, 30).png().toBuffer());
    if (!image.ok) throw new Error(image.code);
    const stored = await storeUpload(store, image);
    key = stored.variants.find((entry) => entry.format === "webp")?.key ?? "";
    variant = image.variants.find((entry) => entry.format === "webp")?.data ?? Buffer.alloc(0);
    await store.put("art/cover.svg", Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"));
    const app = express();
    app.use("/media", serveMedia(store));
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(describeError(error).status).end();
    });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("serves an upload's variant for a year, immutable, with its type", async () => {
    const response = await fetch(`${origin}/media/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(Buffer.from(await response.arrayBuffer()).equals(variant)).toBe(true);
    const etag = response.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await fetch(`${origin}/media/${key}`, {
      // fetch adds `no-cache` to a conditional request unless told otherwise; a browser's revalidation does not.
      headers: { "if-none-match": etag ?? "", "cache-control": "max-age=0" },
    });
    expect(again.status).toBe(304);
    const head = await fetch(`${origin}/media/${key}`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length")]).toEqual([200, String(variant.length)]);
  });

  it("serves imported art for a day, and answers a missing or bad path 404 or 400", async () => {
    const art = await fetch(`${origin}/media/art/cover.svg`);
    expect(art.status).toBe(200);
    expect(art.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(art.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    await art.arrayBuffer();
    expect((await fetch(`${origin}/media/uploads/none/480.webp`)).status).toBe(404);
    expect((await fetch(`${origin}/media/%00`)).status).toBe(400);
    expect((await fetch(`${origin}/media/%E0%A4%A`)).status).toBe(400);
    expect((await fetch(`${origin}/media/${key}`, { method: "POST" })).status).toBe(405);
  });
});
