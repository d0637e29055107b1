import { describe, expect, it } from "vitest";
import { errorCode, errorStatus } from "./db-errors";

describe("errorCode", () => {
  it("gives the SQLSTATE of a driver error wrapped by drizzle, never its message", () => {
    const driver = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: "22021",
    });
    const wrapped = Object.assign(new Error("Failed query: select ... params: tps_\u0000"), {
      name: "DrizzleQueryError",
      cause: driver,
    });
    expect(errorCode(wrapped)).toBe("22021");
  });

  it("falls back to the error's name, and copes with anything thrown", () => {
    expect(errorCode(new TypeError("x"))).toBe("TypeError");
    expect(errorCode("a string")).toBe("string");
    expect(errorCode(undefined)).toBe("undefined");
    expect(errorCode({ code: "has spaces and a\nnewline", name: "Odd" })).toBe("Odd");
  });
});

describe("errorStatus", () => {
  it("keeps a 4xx an error asks for and makes everything else a 500", () => {
    expect(errorStatus(Object.assign(new Error("missing"), { status: 404 }))).toBe(404);
    expect(errorStatus(Object.assign(new Error("bad"), { statusCode: 400 }))).toBe(400);
    expect(errorStatus(Object.assign(new Error("odd"), { status: 99 }))).toBe(500);
    expect(errorStatus(null)).toBe(500);
  });

  it("answers text the database could not store (22021, 22P05, under drizzle's wrapper) with 400", () => {
    const wrapped = (code: string) => Object.assign(new Error("Failed query"), { cause: { code } });
    expect(errorStatus(wrapped("22021"))).toBe(400);
    expect(errorStatus(wrapped("22P05"))).toBe(400);
    expect(errorStatus(wrapped("23505"))).toBe(500);
  });
});
