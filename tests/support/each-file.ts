import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { removeTempDirs } from "./temp";

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

/** Registered first, so it runs after the file's own afterAll hooks (which stop servers using the folders). */
afterAll(removeTempDirs);
