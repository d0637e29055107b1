import { beforeEach, describe, expect, it, vi } from "vitest";
import { hasRole, requireAnonymous, requireAuthor, requireUser, requireUserForApi } from "./guards.server";
import { getSessionUser, type SessionUser } from "./session.server";

vi.mock("./session.server", () => ({ getSessionUser: vi.fn() }));

const signedIn = vi.mocked(getSessionUser);
const reader = { id: 7, username: "mira", role: "reader" } as SessionUser;
const author = { ...reader, id: 8, role: "author" } as SessionUser;
const request = (path: string) => new Request(`http://localhost${path}`);

/** What a guard threw: the status, where it sends the browser and the body it answers with. */
async function thrown(guard: Promise<unknown>) {
  const error = await guard.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof Response) {
    const body = error.headers.get("Content-Type")?.includes("json") ? await error.json() : undefined;
    return { status: error.status, location: error.headers.get("Location"), body };
  }
  const init = (error as { init?: ResponseInit; data?: unknown } | undefined) ?? {};
  return { status: init.init?.status, location: null, body: init.data };
}

beforeEach(() => signedIn.mockReset());

describe("requireUser", () => {
  it("returns the signed-in reader", async () => {
    signedIn.mockResolvedValue(reader);
    await expect(requireUser(request("/account"))).resolves.toBe(reader);
  });

  it("sends a visitor to sign in and back to the page, query included, even from a .data request", async () => {
    signedIn.mockResolvedValue(undefined);
    expect(await thrown(requireUser(request("/coins.data?payment=3")))).toEqual({
      status: 302,
      location: "/login?redirectTo=%2Fcoins%3Fpayment%3D3",
      body: undefined,
    });
  });
});

describe("requireAnonymous", () => {
  it("lets a visitor through", async () => {
    signedIn.mockResolvedValue(undefined);
    await expect(requireAnonymous(request("/login"))).resolves.toBeUndefined();
  });

  it("sends a signed-in reader on, to /account unless told where", async () => {
    signedIn.mockResolvedValue(reader);
    expect((await thrown(requireAnonymous(request("/register")))).location).toBe("/account");
    expect((await thrown(requireAnonymous(request("/login"), "/toc"))).location).toBe("/toc");
  });
});

describe("requireUserForApi", () => {
  it("answers a visitor with a JSON 401, not a redirect", async () => {
    signedIn.mockResolvedValue(undefined);
    expect(await thrown(requireUserForApi(request("/reader/progress?chapter=1")))).toEqual({
      status: 401,
      location: null,
      body: { error: "signed-out" },
    });
  });

  it("returns the signed-in reader", async () => {
    signedIn.mockResolvedValue(reader);
    await expect(requireUserForApi(request("/reader/settings"))).resolves.toBe(reader);
  });
});

describe("roles", () => {
  it("an author has the reader's rights and the author's; a reader only the reader's", () => {
    expect(hasRole(reader, "reader")).toBe(true);
    expect(hasRole(reader, "author")).toBe(false);
    expect(hasRole(author, "reader")).toBe(true);
    expect(hasRole(author, "author")).toBe(true);
  });

  it("requireAuthor: a visitor and a reader get the ordinary 404 (no sign-in redirect), an author passes", async () => {
    for (const who of [undefined, reader]) {
      signedIn.mockResolvedValue(who);
      expect(await thrown(requireAuthor(request("/admin")))).toEqual({
        status: 404,
        location: null,
        body: null,
      });
    }
    signedIn.mockResolvedValue(author);
    await expect(requireAuthor(request("/admin"))).resolves.toBe(author);
  });
});
