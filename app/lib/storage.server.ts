import crypto from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

/** An S3-compatible bucket for the media (the S3_ settings, app/lib/env.server.ts). */
export type S3Settings = {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** An S3-compatible server (MinIO, R2, Garage…); AWS itself when unset. */
  endpoint?: string;
  /** `bucket` in the path rather than the host name: what most S3-compatible servers expect. */
  forcePathStyle?: boolean;
};

/** What a stored object is: its size and type, without its bytes. */
export type MediaHead = { bytes: number; contentType: string; etag?: string };

/** A stored object as a stream, to serve it without holding it whole in memory. */
export type MediaObject = MediaHead & { body: Readable };

/**
 * Where uploaded and imported images live: a directory under DATA_DIR (`LocalMediaStore`) or an S3-compatible
 * bucket (`S3MediaStore`, app/lib/s3-storage.server.ts). Keys are relative paths like `art/chapter-1.svg`;
 * both stores refuse a key that climbs out (`..`), is empty or holds a NUL.
 */
export interface MediaStore {
  /** Stores bytes under a key; returns whether anything changed. The type defaults to the key's extension. */
  put(key: string, bytes: Uint8Array, contentType?: string): Promise<boolean>;
  get(key: string): Promise<Buffer | undefined>;
  /** The object as a stream with its type and size, undefined when there is none. */
  open(key: string): Promise<MediaObject | undefined>;
  head(key: string): Promise<MediaHead | undefined>;
  /** Removes a key; removing what is not there is no error. */
  delete(key: string): Promise<void>;
  /** Every key, sorted; only those starting with `prefix` when given. */
  list(prefix?: string): Promise<string[]>;
}

const contentTypes: Record<string, string> = {
  ".avif": "image/avif",
  ".gif": "image/gif",
  ".jpeg": "image/jpeg",
  ".jpg": "image/jpeg",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".webp": "image/webp",
};

/** The type a key's extension names; bytes of an unknown kind are served as bytes, never sniffed. */
export function contentTypeOf(key: string): string {
  return contentTypes[path.posix.extname(key).toLowerCase()] ?? "application/octet-stream";
}

/** The key normalised, or an error for one that climbs out of the store, is empty or holds a NUL. */
export function safeKey(key: string): string {
  const normalised = path.posix.normalize(key).replace(/^\/+/, "");
  if (
    normalised.startsWith("..") ||
    normalised === "" ||
    normalised === "." ||
    normalised.includes("\0") ||
    normalised.includes("\\")
  ) {
    throw new Error(`Invalid media key: ${key}`);
  }
  return normalised;
}

export class LocalMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  private file(key: string) {
    return path.join(this.root, safeKey(key));
  }

  async put(key: string, bytes: Uint8Array) {
    const target = this.file(key);
    const current = await fs.readFile(target).catch(() => undefined);
    if (current?.equals(bytes)) return false;
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Its own temporary file per write: two writes of one key at once (the same upload twice) each rename whole.
    const temporary = `${target}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, target);
    return true;
  }

  async get(key: string) {
    return fs.readFile(this.file(key)).catch(() => undefined);
  }

  async head(key: string) {
    const stat = await fs.stat(this.file(key)).catch(() => undefined);
    if (!stat?.isFile()) return undefined;
    return { bytes: stat.size, contentType: contentTypeOf(key) };
  }

  async open(key: string) {
    const found = await this.head(key);
    return found && { ...found, body: createReadStream(this.file(key)) };
  }

  async delete(key: string) {
    await fs.rm(this.file(key), { force: true });
  }

  async list(prefix = "") {
    const entries = await fs.readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
      .map((entry) =>
        path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
      )
      .filter((key) => key.startsWith(prefix))
      .sort();
  }
}
