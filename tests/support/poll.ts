/**
 * Asks `probe` again until it returns something other than undefined, and returns that. Tests wait on the
 * condition they need, never on a fixed sleep: a slow machine only makes the wait longer, up to `timeout`,
 * which is a ceiling for a hung test, not a figure the test asserts. Not Vitest's `vi.waitUntil`: under fake
 * timers that moves the test's clock on at every look (ADR 105), and tests here hold a clock while they wait.
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  { timeout = 15_000, interval = 50, what = "the condition" } = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
