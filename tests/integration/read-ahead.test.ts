import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { loader as chapterLoader } from "~/routes/chapter";
import { loader as tocLoader } from "~/routes/toc";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantMembership } from "../support/factories";

/** A request as a browser sends it, with the reader's session cookie when there is one. */
function request(path: string, cookie?: string) {
  return new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

// Route data (`.data`, documentRequest false) carries the text itself; a page load hands it to the render.
const context = (documentRequest: boolean) =>
  ({ documentRequest, documentOnly: {} as Record<string, string> }) as never;

describe.each(drivers)("read-ahead on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  async function reader(grantDays?: number) {
    const { id, cookie } = await createReader({ prefix: "ahead" });
    if (grantDays) await grantMembership(id, grantDays);
    return cookie;
  }

  async function chapter10(cookie?: string, documentRequest = false) {
    const ctx = context(documentRequest);
    const result = (await chapterLoader({
      request: request("/chapter/10", cookie),
      params: { id: "10" },
      context: ctx,
    } as never)) as unknown as { data: { chapter: { lock?: { kind: string }; html?: string } } };
    return {
      ...result.data.chapter,
      documentHtml: (ctx as { documentOnly: Record<string, string> }).documentOnly,
    };
  }

  it("a first_human member reads chapter 10 before its release; a visitor and a free reader cannot", async () => {
    const member = await reader(180);
    const free = await reader();

    const asMember = await chapter10(member);
    expect(asMember.lock).toBeUndefined();
    expect(asMember.html).toContain("<p");
    // On a page load the text goes to the render once, not into the route data.
    const memberPage = await chapter10(member, true);
    expect(memberPage.html).toBeUndefined();
    expect(memberPage.documentHtml.chapterHtml).toContain("<p");

    for (const cookie of [undefined, free]) {
      for (const documentRequest of [false, true]) {
        const locked = await chapter10(cookie, documentRequest);
        expect(locked.lock).toMatchObject({ kind: "release" });
        expect(locked.html).toBeUndefined();
        expect(locked.documentHtml.chapterHtml).toBeUndefined();
      }
    }
  });

  it("the table of contents agrees: early access for the member, locked for the others", async () => {
    const member = await reader(30);
    const free = await reader();
    const statusOf10 = async (cookie?: string) => {
      const { data } = (await tocLoader({
        request: request("/toc", cookie),
        params: {},
        context: {},
      } as never)) as {
        data: { volumes: { chapters: { number: number; status: string }[] }[] };
      };
      return data.volumes.flatMap((volume) => volume.chapters).find((chapter) => chapter.number === 10)
        ?.status;
    };
    expect(await statusOf10(member)).toBe("early");
    expect(await statusOf10(free)).toBe("locked");
    expect(await statusOf10()).toBe("locked");
  });
});
