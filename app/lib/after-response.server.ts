import { logger } from "./logger.server";

/**
 * Work a request starts but its answer must not wait for, nor show the cost of: e-mail that depends on
 * whether an account exists (ADR 16). A task runs once the response has been written (or the client has
 * gone), so every path answers in the same time whatever the task does. It lives in this process only:
 * a crash between the answer and the task loses the task (the reader asks again); SIGTERM waits for it.
 */
export type AfterResponse = (task: () => Promise<unknown>) => void;

const running = new Set<Promise<unknown>>();

type Finishable = { once(event: "finish" | "close", listener: () => void): unknown };

/** The context's `afterResponse` for one response. */
export function afterResponseOf(res: Finishable): AfterResponse {
  return (task) => {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      const run = task()
        .catch((error: unknown) => logger.error({ err: error }, "work after the response failed"))
        .finally(() => running.delete(run));
      running.add(run);
    };
    res.once("finish", start);
    res.once("close", start);
  };
}

/** Waits (at most `ms`) for the tasks already started, before the database closes at shutdown. */
export async function settleAfterResponse(ms: number): Promise<void> {
  if (running.size === 0) return;
  await Promise.race([
    Promise.allSettled([...running]),
    new Promise((resolve) => setTimeout(resolve, ms).unref()),
  ]);
}
