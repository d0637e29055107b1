import { afterEach, beforeEach, vi } from "vitest";

/** A test that logs an unexpected error fails. */
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length)
    throw new Error(`console.error was called: ${errors.map((args) => args.join(" ")).join("\n")}`);
});
