/**
 * A module whose function `name` counts its calls in `counter` and otherwise does what it did: for a
 * `vi.mock` factory, so that a test asserts how many times a code path ran (a hash, a verification)
 * instead of timing it.
 */
export function countingCalls<M extends object>(module: M, name: keyof M, counter: { count: number }): M {
  const original = module[name] as (...args: unknown[]) => unknown;
  return {
    ...module,
    [name]: (...args: unknown[]) => {
      counter.count++;
      return original(...args);
    },
  };
}
