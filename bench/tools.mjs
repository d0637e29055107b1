// What the bench needs from the machine, checked before anything starts, and the processes it starts,
// stopped and their data directories removed however it ends (a finished run, a failure, Ctrl-C).
import fs from "node:fs";
import path from "node:path";
import { chromium } from "../chromium.mjs";

const onPath = (name) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** Each thing the bench needs and this machine lacks, with the command that installs it. */
export function missingTools({ lighthouse = true, build = true } = {}) {
  const missing = [];
  if (!onPath("wrk")) missing.push("wrk, the load generator: apt-get install -y wrk");
  if (!fs.existsSync(chromium.executablePath))
    missing.push(
      `Chromium (${chromium.executablePath}), for page weights${lighthouse ? " and Lighthouse" : ""}: apt-get install -y chromium`,
    );
  if (build && !fs.existsSync("build/server/index.js"))
    missing.push("the production build: npm run build (npm run bench runs it first)");
  return missing;
}

/** Exits with a message naming every missing tool, before any server is started. */
export function requireTools(options) {
  const missing = missingTools(options);
  if (!missing.length) return;
  console.error(`The bench cannot start; missing:\n${missing.map((line) => `  - ${line}`).join("\n")}`);
  process.exit(1);
}

const children = new Set();
const paths = new Set();

/** A server the bench started: killed when the bench exits, if it has not stopped it by then. */
export function killAtExit(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
}

/** A data directory or file the bench made: removed when the bench exits; returns it. */
export function removeAtExit(file) {
  paths.add(file);
  return file;
}

process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const file of paths) fs.rmSync(file, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.once(signal, () => process.exit(130));

// `npm run bench` runs this first, before it builds: the build comes after.
if (import.meta.url === `file://${process.argv[1]}`) requireTools({ build: false });
