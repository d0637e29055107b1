import { logger } from "~/lib/logger.server";

/**
 * A mail queue's sender in this process (server/app.ts): `send` every `everyMs`, a tick still in flight not
 * doubled, and a stop that waits for the tick in flight so the database is not closed under it.
 */
export function mailTicker(event: string, send: () => Promise<unknown>, everyMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  return {
    start(every = everyMs): void {
      if (timer) return;
      timer = setInterval(() => {
        running ??= send()
          .catch((error: unknown) => logger.error({ event, err: error }, "e-mail tick failed"))
          .finally(() => {
            running = undefined;
          });
      }, every);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
