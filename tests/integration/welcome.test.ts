import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { coinLedger } from "#db/schema";
import { loader as welcomeLoader } from "~/routes/auth/welcome";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

async function newReader() {
  const { id, cookie } = await createReader({ prefix: "welcome" });
  return { userId: id, session: cookie };
}

/** Opens /welcome with these cookies; what it announces and the cookie it sets. */
async function welcome(cookies: string[]) {
  const request = new Request("http://localhost/welcome", { headers: { cookie: cookies.join("; ") } });
  // biome-ignore lint/suspicious/noExplicitAny: the loader reads only the request
  const result = (await welcomeLoader({ request, params: {}, context: {} } as any)) as unknown as {
    data: { bonus?: number };
    init?: { headers?: Record<string, string> };
  };
  const setCookie = result.init?.headers?.["Set-Cookie"];
  return { bonus: result.data.bonus, marker: setCookie?.split(";")[0] };
}

describe.each(drivers)("/welcome on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
  });
  afterAll(() => handle.close());

  it("announces the welcome coins right after sign-up, once in a browser", async () => {
    const { userId, session } = await newReader();
    const first = await welcome([session]);
    expect(first).toEqual({ bonus: 3, marker: `welcomed=${userId}` });
    // The browser sends the marker back: a plain welcome from then on.
    expect(await welcome([session, first.marker ?? ""])).toEqual({ bonus: undefined, marker: undefined });
    // Another reader's marker in the same browser does not silence this reader's announcement.
    const other = await newReader();
    expect(await welcome([other.session, first.marker ?? ""])).toEqual({
      bonus: 3,
      marker: `welcomed=${other.userId}`,
    });
  });

  it("does not announce coins granted longer ago (a reader coming back to /welcome later)", async () => {
    const { userId, session } = await newReader();
    await handle.db
      .update(coinLedger)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(coinLedger.idempotencyKey, `welcome:${userId}`));
    expect(await welcome([session])).toEqual({ bonus: undefined, marker: undefined });
  });
});
