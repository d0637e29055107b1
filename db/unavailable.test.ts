import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, isTransactionConflict } from "./unavailable";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    [
      "pg_terminate_backend (57P01)",
      withCode("57P01", "terminating connection due to administrator command"),
    ],
    ["crash shutdown (57P02)", withCode("57P02")],
    ["starting up (57P03)", withCode("57P03", "the database system is starting up")],
    ["connection failure (08006)", withCode("08006")],
    ["connection refused", withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["reset", withCode("ECONNRESET")],
    ["lost mid-query", new Error("Connection terminated unexpectedly")],
    ["a broken client reused", new Error("Client has encountered a connection error and is not queryable")],
    ["pool connect timeout", new Error("timeout exceeded when trying to connect")],
    ["wrapped by Drizzle", new DrizzleQueryError("select 1", [], withCode("57P01") as Error)],
  ])("%s: yes", (_, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ["unique violation", withCode("23505")],
    ["serialisation failure", withCode("40001")],
    ["syntax error", withCode("42601")],
    ["wrapped check violation", new DrizzleQueryError("insert", [], withCode("23514") as Error)],
    ["a plain bug", new TypeError("x is undefined")],
    ["a Response", new Response(null, { status: 404 })],
    ["nothing", undefined],
    ["a string", "Connection terminated"],
  ])("%s: no", (_, error) => expect(isDatabaseUnavailable(error)).toBe(false));

  it("stops on a cycle of causes", () => {
    const error = new Error("a") as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("isTransactionConflict", () => {
  it.each([
    ["deadlock (40P01)", withCode("40P01", "deadlock detected")],
    ["serialization failure (40001)", withCode("40001", "could not serialize access")],
    ["wrapped by Drizzle", new DrizzleQueryError("update", [], withCode("40P01") as Error)],
  ])("%s: yes", (_, error) => expect(isTransactionConflict(error)).toBe(true));

  it.each([
    ["unique violation", withCode("23505")],
    ["lost connection", withCode("57P01")],
    ["lock timeout", withCode("55P03")],
    ["a plain bug", new TypeError("x is undefined")],
    ["nothing", undefined],
    ["a string", "40P01"],
  ])("%s: no", (_, error) => expect(isTransactionConflict(error)).toBe(false));
});
