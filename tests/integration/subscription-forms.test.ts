import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { payments, subscriptions } from "#db/schema";
import { startCheckout } from "~/features/payments/checkout.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import type { RequestContext } from "~/lib/context";
import { action as accountAction, loader as accountLoader } from "~/routes/account/subscription";
import { action as testAction, loader as testLoader } from "~/routes/payments/test-subscription";
import { post, statusOf } from "../support/actions";
import { openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

/**
 * The subscription forms (/account/subscription and the test provider's /pay/test/subscription/:id): what
 * each answers, and that any input gives a page, a redirect or a 4xx with a translated message, never a 500.
 */
const context = () =>
  ({ requestId: `req-${unique()}`, ip: "203.0.113.7" }) as Partial<RequestContext> as RequestContext;

describe("subscription forms", () => {
  let handle: DatabaseHandle;
  let member: TestReader;
  let providerId: string;
  beforeAll(async () => {
    handle = await openTestDatabase("pglite");
    member = await createReader({ prefix: "formy" });
    const { url } = await startCheckout(
      member,
      { kind: "subscription", tierKey: "analyst" },
      { ip: unique() },
    );
    await answerTestCheckout(url.replace("/pay/test/", ""), "approve");
    const [sub] = await handle.db.select().from(subscriptions).where(eq(subscriptions.userId, member.id));
    providerId = sub?.providerSubscriptionId ?? "";
  });
  afterAll(() => handle.close());

  const account = (fields: Record<string, string> | string, reader: TestReader | undefined = member) =>
    statusOf(() =>
      accountAction({
        request: post("/account/subscription", reader, fields),
        params: {},
        context: context(),
      } as never),
    );

  it("sends a visitor to sign in, and a cancel without its confirmation to the confirmation step", async () => {
    expect((await account({ intent: "resume" }, undefined)).status).toBe(302);
    expect(await account({ intent: "cancel" })).toMatchObject({
      status: 302,
      location: "/account/subscription?confirm=cancel",
    });
    const page = await accountLoader({
      request: new Request("http://localhost/account/subscription?confirm=cancel", {
        headers: { cookie: member.cookie },
      }),
    } as never);
    expect(page).toMatchObject({
      confirmCancel: true,
      subscription: { tierKey: "analyst", phase: "active" },
    });
  });

  it("joins from the account (not listed on the wall), and refuses a second subscription with its message", async () => {
    const newcomer = await createReader({ prefix: "formy" });
    const joined = await account({ intent: "join", tierKey: "observer" }, newcomer);
    expect(joined).toMatchObject({ status: 302, location: expect.stringMatching(/^\/pay\/test\/tps_/) });
    const [pending] = await handle.db.select().from(payments).where(eq(payments.userId, newcomer.id));
    expect(pending).toMatchObject({ kind: "subscription", status: "pending", tierKey: "observer" });
    expect(pending?.supporterChoice).toMatchObject({ display: "hidden" });
    expect(await account({ intent: "join", tierKey: "first_human" })).toMatchObject({
      status: 409,
      body: { error: "subscriptions.errors.alreadySubscribed" },
    });
  });

  it("answers a known refusal with its translated message", async () => {
    expect(await account({ intent: "change", tierKey: "analyst" })).toMatchObject({
      status: 409,
      body: { error: "subscriptions.errors.sameTier" },
    });
    const stranger = await createReader({ prefix: "formy" });
    expect(await account({ intent: "resume" }, stranger)).toMatchObject({
      status: 404,
      body: { error: "subscriptions.errors.none" },
    });
    expect(await account({ intent: "change", tierKey: "analyst", price: "1" })).toMatchObject({
      status: 400,
      body: { error: "subscriptions.errors.badRequest" },
    });
  });

  it("shows the test provider's page only to the subscriber, and renews from it", async () => {
    const request = (reader: TestReader, id = providerId) =>
      testLoader({
        request: new Request(`http://localhost/pay/test/subscription/${id}`, {
          headers: { cookie: reader.cookie },
        }),
        params: { subscription: id },
      } as never);
    const stranger = await createReader({ prefix: "formy" });
    expect((await statusOf(() => request(stranger))).status).toBe(404);
    expect((await statusOf(() => request(member, "x".repeat(500)))).status).toBe(404);
    const before = await request(member);
    const renewed = await statusOf(() =>
      testAction({
        request: post(`/pay/test/subscription/${providerId}`, member, { action: "renew" }),
        params: { subscription: providerId },
        context: context(),
      } as never),
    );
    expect(renewed.status).toBe(302);
    const after = await request(member);
    expect(new Date(after.periodEnd).getTime()).toBeGreaterThan(new Date(before.periodEnd).getTime());
  });
  it("answers any fields with a redirect or a 4xx, never an error (fuzz)", async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(
        "",
        "\u0000",
        "change",
        "cancel",
        "resume",
        "yes",
        "analyst",
        "first_human",
        "free",
        "%00",
      ),
    );
    const fields = fc.dictionary(
      fc.oneof(fc.constantFrom("intent", "tierKey", "confirm", "action"), fc.string({ maxLength: 50 })),
      text,
      { maxKeys: 8 },
    );
    const body = fc.oneof(
      fields,
      fc.string({ maxLength: 500 }).map((raw) => raw),
    );
    await fc.assert(
      fc.asyncProperty(body, async (values) => {
        const answer = await account(values as Record<string, string>);
        expect([302, 400, 404, 409]).toContain(answer.status);
        if (answer.status !== 302)
          expect(String((answer.body as { error?: string })?.error)).toMatch(/^subscriptions\./);
        const test = await statusOf(() =>
          testAction({
            request: post(`/pay/test/subscription/${providerId}`, member, values as Record<string, string>),
            params: { subscription: providerId },
            context: context(),
          } as never),
        );
        expect([302, 400, 404, 409]).toContain(test.status);
      }),
      { numRuns: 80 },
    );
  });
});
