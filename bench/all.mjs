// `npm run bench [-- options]`: the tools checked (tools.mjs), the production build made, the parts run
// (run.mjs, which takes the options: `--only=PART,...`, `--duration=SECONDS`...), then the report. One script,
// so the options reach run.mjs: npm appends them to the last command of a `&&` chain, which was the report's.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The bench's steps, each [command, arguments], the options given to the parts' run. */
export function benchSteps(options) {
  return [
    [process.execPath, ["bench/tools.mjs"]],
    ["npm", ["run", "build"]],
    [process.execPath, ["bench/run.mjs", ...options]],
    ["npm", ["run", "bench:report"]],
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    for (const [command, args] of benchSteps(process.argv.slice(2)))
      execFileSync(command, args, { stdio: "inherit" });
  } catch (error) {
    // The step printed its own failure; its exit code is the bench's.
    process.exit(typeof error.status === "number" ? error.status : 1);
  }
}
