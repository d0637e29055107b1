import pino from "pino";
import { errorCode } from "./db-errors";
import { logLevelFrom } from "./env.server";
import { LogOutput } from "./log-output.server";
import { REDACTED, redactedLogPaths } from "./redact";

/**
 * Where the log goes: stdout, buffered and written in chunks, asynchronously (ADR 69). A synchronous write per
 * line cost a busy server a third of the kept chapter page's pace; lines now leave every ~16 KB, and within
 * `FLUSH_MS` on a quiet server; a warning or an error leaves at once. What is buffered is written synchronously when the process exits (the shutdown
 * after SIGTERM or SIGINT, `process.exit`, an uncaught exception); a SIGKILL or an abort loses it.
 */
export const logOutput = new LogOutput(1);
const FLUSH_MS = 500;
process.on("exit", () => logOutput.flushSync());
setInterval(() => {
  const dropped = logOutput.takeDropped();
  if (dropped > 0) logger.warn({ droppedLines: dropped }, "log lines dropped: stdout was not read");
  logOutput.flush();
}, FLUSH_MS).unref();

/** Lines at the routine levels, which wait for their chunk. */
const routine = /^\{"level":"(info|debug|trace)"/;

/**
 * The logger's destination over `output`: a warning or an error is written at once (asynchronously still), so
 * the operator's log never holds back the line that says something went wrong; the rest waits for its chunk.
 * At a developer's level (`debug`, `trace`: someone is watching, and the cost is theirs) every line is written
 * at once and synchronously, in order with what the process does next.
 */
export function logDestination(output: LogOutput, { watched = false } = {}) {
  return {
    write(line: string) {
      output.write(line);
      if (watched) output.flushSync();
      else if (!routine.test(line)) output.flush();
    },
  };
}

/** The time as pino writes it; a busy server answers many requests in one millisecond, so it is made once per ms. */
let lastMs = 0;
let lastIso = "";
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

/**
 * JSON-lines logger. Never log passwords, tokens or session ids; the fields that would carry one are
 * censored anyway (app/lib/redact.ts), and the access log's URL is redacted where it is written.
 */
export const logger = pino(
  {
    level: logLevelFrom(process.env),
    base: undefined,
    timestamp: () => `,"time":"${isoTime()}"`,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: redactedLogPaths, censor: REDACTED },
    serializers: { err: safeError },
  },
  logDestination(logOutput, { watched: ["debug", "trace"].includes(logLevelFrom(process.env)) }),
);

/** One request's access line: the URL as the client sent it, redacted (`redactUrl`). */
export type AccessLine = {
  requestId?: string;
  method: string | undefined;
  url: string | undefined;
  status: number;
  ms?: number;
  ip: string | undefined;
};

const field = (name: string, value: string | undefined) =>
  value === undefined ? "" : `,"${name}":${JSON.stringify(value)}`;

/**
 * The access line, at level info, as pino would write it (same fields, same order), built as one string: every
 * field is known and none can hold a secret (the URL is redacted by the caller), so pino's walk of the object
 * for its censored paths, which cost as much as the rest of the line, is not needed.
 */
export function accessLog(line: AccessLine): void {
  if (!logger.isLevelEnabled("info")) return;
  logOutput.write(
    `{"level":"info","time":"${isoTime()}"${field("requestId", line.requestId)}${field("method", line.method)}${field("url", line.url)},"status":${line.status}${line.ms === undefined ? "" : `,"ms":${line.ms.toFixed(3)}`}${field("ip", line.ip)}}\n`,
  );
}

/**
 * An error as a log line may hold it: its class and code, and the stack's frames without its message line.
 * A database error's message (drizzle's "Failed query: … params: …") carries the request's values, a
 * password hash or an e-mail among them, so no message is written (ADR 15).
 */
export function safeError(error: unknown): { type: string; code: string; frames?: string } {
  const type = error instanceof Error ? error.constructor.name : typeof error;
  const stack = error instanceof Error ? error.stack : undefined;
  const frames = stack
    ?.split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .slice(0, 8)
    .join("\n");
  return { type, code: errorCode(error), ...(frames ? { frames } : {}) };
}
