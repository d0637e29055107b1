import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP server speaking enough of the S3 protocol, path-style (`/<bucket>/<key>`), for the real
 * @aws-sdk/client-s3 to store media in it: PutObject, GetObject, HeadObject, DeleteObject and ListObjectsV2
 * (with continuation tokens). Signatures are not verified, but a request without an Authorization header is
 * refused as S3 refuses an anonymous one on a private bucket. Errors are S3's XML bodies and codes.
 */
export type FakeS3Object = { body: Buffer; contentType: string; etag: string; modified: Date };
export type FakeS3Request = { method: string; path: string; authorization: string | undefined };

export const FAKE_S3_CREDENTIALS = {
  accessKeyId: "FAKEACCESSKEY",
  secretAccessKey: "fake-secret-access-key",
};

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const xmlText = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c,
  );

/** An `aws-chunked` body (a streaming upload) as its plain bytes: `<hex size>;chunk-signature=…\r\n<bytes>\r\n`. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(raw.toString("latin1", at, lineEnd).split(";")[0] ?? "", 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export async function startFakeS3({ bucket = "media", pageSize = 1000 } = {}) {
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3Request[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake-s3");
      const method = req.method ?? "GET";
      requests.push({ method, path: url.pathname, authorization: req.headers.authorization });
      const fail = (status: number, code: string, message: string) => {
        res.writeHead(status, { "content-type": "application/xml", "x-amz-request-id": crypto.randomUUID() });
        res.end(
          method === "HEAD"
            ? undefined
            : xml(`<Error><Code>${code}</Code><Message>${message}</Message></Error>`),
        );
      };
      if (!req.headers.authorization?.startsWith("AWS4-HMAC-SHA256 "))
        return fail(403, "AccessDenied", "Anonymous access is denied");

      const [, bucketName = "", ...keyParts] = url.pathname.split("/");
      if (decodeURIComponent(bucketName) !== bucket) return fail(404, "NoSuchBucket", "No such bucket");
      const key = keyParts.map(decodeURIComponent).join("/");

      if (!key) {
        if (method !== "GET" || url.searchParams.get("list-type") !== "2")
          return fail(501, "NotImplemented", "Only ListObjectsV2 is implemented on a bucket");
        const prefix = url.searchParams.get("prefix") ?? "";
        const max = Math.min(Number(url.searchParams.get("max-keys") ?? 1000), pageSize);
        const after = url.searchParams.get("continuation-token");
        const all = [...objects.keys()].filter((name) => name.startsWith(prefix)).sort();
        const from = after ? all.findIndex((name) => name > Buffer.from(after, "base64url").toString()) : 0;
        const page = from < 0 ? [] : all.slice(from, from + max);
        const truncated = from >= 0 && from + max < all.length;
        const last = page[page.length - 1];
        const contents = page
          .map((name) => {
            const object = objects.get(name);
            return `<Contents><Key>${xmlText(name)}</Key><LastModified>${object?.modified.toISOString()}</LastModified><ETag>${xmlText(object?.etag ?? "")}</ETag><Size>${object?.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
          })
          .join("");
        const token =
          truncated && last
            ? `<NextContinuationToken>${Buffer.from(last).toString("base64url")}</NextContinuationToken>`
            : "";
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          xml(
            `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${xmlText(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token}${contents}</ListBucketResult>`,
          ),
        );
        return;
      }

      const object = objects.get(key);
      const headers = (found: FakeS3Object) => ({
        "content-type": found.contentType,
        "content-length": String(found.body.length),
        etag: found.etag,
        "last-modified": found.modified.toUTCString(),
      });
      switch (method) {
        case "PUT": {
          const raw = Buffer.concat(chunks);
          const streaming = String(req.headers["x-amz-content-sha256"] ?? "").startsWith("STREAMING-");
          const body = streaming ? decodeAwsChunked(raw) : raw;
          const etag = `"${crypto.createHash("md5").update(body).digest("hex")}"`;
          objects.set(key, {
            body,
            contentType: String(req.headers["content-type"] ?? "binary/octet-stream"),
            etag,
            modified: new Date(),
          });
          res.writeHead(200, { etag });
          res.end();
          return;
        }
        case "GET":
        case "HEAD":
          if (!object) return fail(404, "NoSuchKey", "The specified key does not exist.");
          res.writeHead(200, headers(object));
          res.end(method === "GET" ? object.body : undefined);
          return;
        case "DELETE":
          objects.delete(key);
          res.writeHead(204);
          res.end();
          return;
        default:
          return fail(405, "MethodNotAllowed", "The method is not allowed");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    requests,
    settings: {
      bucket,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      ...FAKE_S3_CREDENTIALS,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
