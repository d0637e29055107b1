import fs from "node:fs/promises";
import path from "node:path";

/** Where uploaded and imported images live. Local directory now; an S3-compatible store can implement the same. */
export interface MediaStore {
  /** Stores bytes under a key like `art/chapter-1.svg`; returns whether anything changed. */
  put(key: string, bytes: Uint8Array): Promise<boolean>;
  get(key: string): Promise<Buffer | undefined>;
  list(): Promise<string[]>;
}

function safeKey(key: string): string {
  const normalised = path.posix.normalize(key).replace(/^\/+/, "");
  if (normalised.startsWith("..") || normalised === "" || normalised.includes("\0")) {
    throw new Error(`Invalid media key: ${key}`);
  }
  return normalised;
}

export class LocalMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  async put(key: string, bytes: Uint8Array) {
    const target = path.join(this.root, safeKey(key));
    const current = await fs.readFile(target).catch(() => undefined);
    if (current?.equals(bytes)) return false;
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, target);
    return true;
  }

  async get(key: string) {
    return fs.readFile(path.join(this.root, safeKey(key))).catch(() => undefined);
  }

  async list() {
    const entries = await fs.readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
      .map((entry) =>
        path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
      )
      .sort();
  }
}
