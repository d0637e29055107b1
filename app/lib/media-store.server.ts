import path from "node:path";
import type { Env } from "./env.server";
import { LocalMediaStore, type MediaStore } from "./storage.server";

/**
 * The media store the configuration names: the S3 bucket when the S3_ settings are given, DATA_DIR/media
 * otherwise. The S3 client (~0.3 s and ~25 MB to load) is loaded only for a bucket.
 */
export async function mediaStoreFor(env: Pick<Env, "dataDir" | "s3">): Promise<MediaStore> {
  if (!env.s3) return new LocalMediaStore(path.join(env.dataDir, "media"));
  const { S3MediaStore } = await import("./s3-storage.server");
  return new S3MediaStore(env.s3);
}

const holder: { store?: MediaStore } = {};

/** The server's media store, set once at start (server/app.ts), for the routes that write media. */
export function setMediaStore(store: MediaStore | undefined): void {
  holder.store = store;
}

export function mediaStore(): MediaStore {
  if (!holder.store) throw new Error("The media store is not open yet");
  return holder.store;
}
