/**
 * `npm start`'s build (prestart): builds only when the sources differ from those of the last build, and
 * shows the operator the build's output only when it fails. `npm run build` always builds, and shows all.
 *
 * The sources are every file of the project the build could read: Tailwind reads class names from any file
 * it finds, Vite reads `.env`, the build reads the installed packages (npm's record of them). Their
 * fingerprint is written into build/ after a build that succeeded, and removed before a build starts, so a
 * failed or interrupted build is never taken for a current one.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** What no build reads: outputs, data, caches, reports (as .gitignore lists them) and the repository. */
const notSources = new Set([
  ".git",
  "node_modules",
  "build",
  "data",
  ".react-router",
  "test-results",
  "playwright-report",
  path.join("bench", "results"),
  path.join("tests", "e2e", "screenshots"),
]);
/** The installed packages, as npm records them on every install. */
const installedPackages = path.join("node_modules", ".package-lock.json");

export const fingerprintFile = path.join("build", ".sources-fingerprint");
/** A file every complete build has. */
const builtServer = path.join("build", "server", "index.js");

function sourceFiles(root: string, dir = ""): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (notSources.has(file) || entry.name.endsWith(".tsbuildinfo")) return [];
      if (entry.isDirectory()) return sourceFiles(root, file);
      return entry.isFile() ? [file] : [];
    })
    .sort();
}

/** The fingerprint of the sources under `root`: every file's path and content, and the Node version. */
export function sourcesFingerprint(root: string): string {
  const hash = createHash("sha256").update(`node ${process.version}\n`);
  const files = sourceFiles(root);
  if (fs.existsSync(path.join(root, installedPackages))) files.push(installedPackages);
  for (const file of files) {
    const content = createHash("sha256")
      .update(fs.readFileSync(path.join(root, file)))
      .digest("hex");
    hash.update(`${file}\0${content}\n`);
  }
  return hash.digest("hex");
}

/**
 * Runs `build` unless the sources under `root` are those of the last build. Resolves to whether it built;
 * rejects, leaving no fingerprint, when the build fails.
 */
export async function buildIfChanged(root: string, build: () => Promise<void>): Promise<boolean> {
  const stored = path.join(root, fingerprintFile);
  // Taken before the build, so a file changed while it runs is built next time.
  const fingerprint = sourcesFingerprint(root);
  const current =
    fs.existsSync(path.join(root, builtServer)) &&
    fs.existsSync(stored) &&
    fs.readFileSync(stored, "utf8") === fingerprint;
  if (current) return false;
  fs.rmSync(stored, { force: true });
  await build();
  fs.writeFileSync(stored, fingerprint);
  return true;
}

/** Lines of the build's output that are React Router's and Vite's business, not the operator's. */
const noise = [
  /^The `envFile` option is deprecated/,
  /didn't resolve at build time, it will remain unchanged/,
];

/**
 * `npm run build`, its output held back: all of it when it fails; on success only its error output, less
 * the known notices (`noise`).
 */
function npmBuild(root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "build"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    const errors: string[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      output.push(chunk.toString());
      errors.push(chunk.toString());
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        process.stderr.write(output.join(""));
        reject(new Error(`npm run build failed (exit code ${code})`));
        return;
      }
      const shown = errors
        .join("")
        .split("\n")
        .filter((line) => line.trim() && !noise.some((pattern) => pattern.test(line)));
      if (shown.length) process.stderr.write(`${shown.join("\n")}\n`);
      resolve();
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  const started = Date.now();
  try {
    const built = await buildIfChanged(root, () => {
      console.log("Building: the sources changed since the last build…");
      return npmBuild(root);
    });
    console.log(
      built
        ? `Built in ${Math.round((Date.now() - started) / 1000)} s.`
        : "The build is current (no source changed since it was made).",
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
