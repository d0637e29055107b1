// The start script of package.json, as the bench reads it to start its servers as `npm start` does.
import fs from "node:fs";

/**
 * How `npm start` runs the server, read from package.json's start script (`VAR=value … node FLAGS server.mjs`):
 * its environment and node's flags. The bench's servers start the same way, so what the start script sets (a
 * glibc variable, a V8 flag: ADR 104) is what the bench measures.
 */
export function startCommand(
  script = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")).scripts.start,
) {
  const words = script.trim().split(/\s+/);
  const node = words.indexOf("node");
  const assignments = words.slice(0, Math.max(node, 0));
  const flags = words.slice(node + 1, -1);
  if (
    node < 0 ||
    words.at(-1) !== "server.mjs" ||
    !assignments.every((word) => /^[A-Z_]+=\S+$/.test(word)) ||
    !flags.every((word) => word.startsWith("--"))
  )
    throw new Error(`package.json's start script is not "VAR=value … node --flag … server.mjs": ${script}`);
  return {
    env: Object.fromEntries(
      assignments.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
    ),
    flags,
  };
}
