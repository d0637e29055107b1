import fs from "node:fs";
import type { FullResult, Reporter } from "@playwright/test/reporter";

/**
 * The e2e server's output (playwright.config.ts writes it to `E2E_SERVER_LOG`), printed at the end of a run that
 * did not pass, and only then: a green run prints no log line.
 */
export default class ServerLogReporter implements Reporter {
  onEnd(result: FullResult) {
    const file = process.env.E2E_SERVER_LOG;
    if (result.status === "passed" || !file || !fs.existsSync(file)) return;
    process.stderr.write(`\n--- output of the e2e server (${file}) ---\n${fs.readFileSync(file, "utf8")}\n`);
  }

  printsToStdio() {
    return false;
  }
}
