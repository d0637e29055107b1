import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { logger } from "./logger.server";
import {
  contentTypeOf,
  type MediaHead,
  type MediaObject,
  type MediaStore,
  type S3Settings,
  safeKey,
} from "./storage.server";

/** The answer, or undefined for a missing key: S3 answers one 404 (NotFound for HEAD, NoSuchKey for GET). */
async function orMissing<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
    throw error;
  }
}

const headOf = (
  key: string,
  answer: { ContentLength?: number; ContentType?: string; ETag?: string },
): MediaHead => ({
  bytes: answer.ContentLength ?? 0,
  contentType: answer.ContentType ?? contentTypeOf(key),
  etag: answer.ETag,
});

const SDK_WARNING = "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED";

/**
 * On Node 20 the SDK writes a warning to stderr as plain text (its releases after January 2027 need
 * Node 22), a line that is not JSON in a log that holds only JSON lines: said once in the log instead.
 */
function quietNodeVersionWarning() {
  if (process.env[SDK_WARNING] !== undefined) return;
  process.env[SDK_WARNING] = "true";
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22)
    logger.warn(
      { code: "aws-sdk-node-version", node: process.versions.node },
      "the AWS SDK's releases after January 2027 need Node 22: upgrade Node before upgrading @aws-sdk/client-s3",
    );
}

/** The media store in an S3-compatible bucket: the same keys as the local directory, one object each. */
export class S3MediaStore implements MediaStore {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(settings: S3Settings) {
    quietNodeVersionWarning();
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle ?? false,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only when the operation requires one: S3-compatible servers differ on the newer headers.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3,
    });
  }

  async put(key: string, bytes: Uint8Array, contentType?: string) {
    const Key = safeKey(key);
    const current = await this.head(Key);
    // Keys of uploads are content-addressed, so the same size under the same key is the same object: the
    // bytes are compared only for keys that are not (imported media, rewritten by a later import).
    if (current && current.bytes === bytes.length) {
      const stored = Key.startsWith("uploads/") ? undefined : await this.get(Key);
      if (stored === undefined || stored.equals(bytes)) return false;
    }
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key,
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: contentType ?? contentTypeOf(Key),
      }),
    );
    return true;
  }

  async get(key: string) {
    const found = await this.open(key);
    if (!found) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of found.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  async open(key: string): Promise<MediaObject | undefined> {
    const answer = await orMissing(
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: safeKey(key) })),
    );
    if (!answer) return undefined;
    if (!(answer.Body instanceof Readable)) throw new Error("S3 answered GetObject without a body stream");
    return { body: answer.Body, ...headOf(key, answer) };
  }

  async head(key: string): Promise<MediaHead | undefined> {
    const answer = await orMissing(
      this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: safeKey(key) })),
    );
    return answer && headOf(key, answer);
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: safeKey(key) }));
  }

  async list(prefix = "") {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken }),
      );
      for (const entry of page.Contents ?? []) if (entry.Key) keys.push(entry.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }
}
