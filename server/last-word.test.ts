import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastWordOnError } from "./last-word";

/** What Express answers when a handler throws `error` and the last word is ours. */
describe("the last word on an error", () => {
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  let base = "";
  beforeAll(async () => {
    const app = express();
    app.get("/throw/:code", (req) => {
      const code = req.params.code;
      throw Object.assign(new Error(`failed (${code})`), code === "none" ? {} : { code });
    });
    app.use(lastWordOnError);
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each(["40P01", "40001", "57P01", "ECONNREFUSED"])(
    "answers %s (a deadlock, a serialization failure, the database gone) with 503 and Retry-After",
    async (code) => {
      const response = await fetch(`${base}/throw/${code}`);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await response.text()).not.toContain(code);
    },
  );

  it("answers anything else with 500, without its message", async () => {
    const response = await fetch(`${base}/throw/none`);
    expect(response.status).toBe(500);
    expect(response.headers.get("retry-after")).toBeNull();
    expect(await response.text()).toBe("Internal Server Error");
  });
});
