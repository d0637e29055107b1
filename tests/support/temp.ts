import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made: string[] = [];

/** A new empty directory under the system's temporary folder, removed after the test file (each-file.ts). */
export function tempDir(prefix = "cc-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
