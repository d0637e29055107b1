import { afterAll, describe, expect, it, vi } from "vitest";

describe("the session cookie over https", () => {
  const before = process.env.APP_ORIGIN;
  afterAll(() => {
    process.env.APP_ORIGIN = before;
  });

  it("uses the __Host- prefix with Secure, HttpOnly, SameSite=Lax and Path=/", async () => {
    process.env.APP_ORIGIN = "https://read.example";
    vi.resetModules();
    const { clearSessionCookie, sessionCookieName } = await import("./session.server");
    expect(sessionCookieName()).toBe("__Host-session");
    expect(clearSessionCookie()).toBe("__Host-session=; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=0");
  });
});
