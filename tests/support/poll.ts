import { vi } from "vitest";

/**
 * Asks `probe` again until it returns something other than undefined, and returns that: Vitest's own
 * condition wait (`vi.waitUntil`), with a value that may be falsy (0, false, "") and a failure that names what
 * it waited for. Tests wait on the condition they need, never on a fixed sleep: a slow machine only makes the
 * wait longer, up to `timeout`, which is a ceiling for a hung test, not a figure the test asserts.
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  { timeout = 15_000, interval = 50, what = "the condition" } = {},
): Promise<T> {
  try {
    const found = await vi.waitUntil(
      async () => {
        const value = await probe();
        return value === undefined ? undefined : { value };
      },
      { timeout, interval },
    );
    return found.value;
  } catch (error) {
    throw new Error(`timed out after ${timeout} ms waiting for ${what}`, { cause: error });
  }
}
