import { describe, expect, it } from "vitest";
import { safeError } from "./logger.server";

describe("safeError", () => {
  it("writes a database error's code and frames, never its message or the query's parameters", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email"'), {
      code: "23505",
    });
    const error = new Error(
      "Failed query: insert into users values ($1, $2)\nparams: reader@example.com,$argon2id$v=19$secret",
      {
        cause,
      },
    );
    const line = JSON.stringify(safeError(error));
    expect(line).toContain('"code":"23505"');
    expect(line).toContain("logger.server.test.ts");
    expect(line).not.toContain("reader@example.com");
    expect(line).not.toContain("argon2id");
    expect(line).not.toContain("Failed query");
  });

  it("names what was thrown when it is not an error", () => {
    expect(safeError("boom")).toEqual({ type: "string", code: "string" });
  });
});
