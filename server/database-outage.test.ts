import { DrizzleQueryError } from "drizzle-orm/errors";
import type { ServerBuild } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { Throttled } from "~/features/auth/throttle.server";
import { logger } from "~/lib/logger.server";
import { answeringDatabaseOutages } from "./database-outage";

/** A build of one route whose loader throws `error`. */
function buildThrowing(error: unknown) {
  const build = {
    routes: { root: { id: "root", module: { loader: () => Promise.reject(error) } } },
    entry: { module: { default: () => new Response() } },
  } as unknown as ServerBuild;
  const loader = answeringDatabaseOutages(build).routes.root?.module.loader as (
    args: object,
  ) => Promise<unknown>;
  return loader({ context: { requestId: "r1" } }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
}

describe("the one place loader and action errors become answers", () => {
  it("answers an application error with its status and logs its code", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => undefined);
    const thrown = await buildThrowing(new Throttled(60));
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(429);
    expect(await (thrown as Response).json()).toEqual({ error: "throttled", messageKey: "auth.throttled" });
    expect(info).toHaveBeenCalledWith({ requestId: "r1", code: "throttled", status: 429 }, "request refused");
  });

  it("answers a lost database with 503, and leaves any other error to React Router", async () => {
    vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const lost = await buildThrowing(Object.assign(new Error("gone"), { code: "57P01" }));
    expect((lost as Response).status).toBe(503);
    const bug = new TypeError("x is undefined");
    expect(await buildThrowing(bug)).toBe(bug);
  });

  it.each([
    ["a deadlock", "40P01"],
    ["a serialization failure", "40001"],
  ])("answers %s with 503 and Retry-After, logged as a conflict", async (_, code) => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const thrown = await buildThrowing(
      new DrizzleQueryError("update users", [], Object.assign(new Error("conflict"), { code })),
    );
    expect((thrown as Response).status).toBe(503);
    expect((thrown as Response).headers.get("Retry-After")).toBe("2");
    expect(warn).toHaveBeenCalledWith({ requestId: "r1", reason: `${code} conflict` }, "database conflict");
  });

  it("leaves a refused query to React Router", async () => {
    const bug = Object.assign(new Error("duplicate key"), { code: "23505" });
    expect(await buildThrowing(bug)).toBe(bug);
  });
});
