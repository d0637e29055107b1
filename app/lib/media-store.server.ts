import path from "node:path";
import type { Env } from "./env.server";
import { S3MediaStore } from "./s3-storage.server";
import { LocalMediaStore, type MediaStore } from "./storage.server";

/** The media store the configuration names: the S3 bucket when S3_BUCKET is set, DATA_DIR/media otherwise. */
export function mediaStoreFor(env: Pick<Env, "dataDir" | "s3">): MediaStore {
  return env.s3 ? new S3MediaStore(env.s3) : new LocalMediaStore(path.join(env.dataDir, "media"));
}
