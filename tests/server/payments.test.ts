import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FAKE_SECRET_KEY, FAKE_WEBHOOK_SECRET, startFakeStripe } from "../stripe/fake-stripe";
import { Client, registerReader } from "../support/http";
import { createPostgresDatabase } from "../support/postgres";
import { type RunningServer, startServer } from "../support/server";

/** Payments over HTTP against the built server: the test provider, Stripe (a local fake), and PostgreSQL races. */
const TEST_SECRET = crypto.randomBytes(32).toString("hex");

const register = (client: Client, server: RunningServer) =>
  registerReader(client, server.env.DATA_DIR ?? "", "buyer");

async function balance(client: Client): Promise<number> {
  const html = await (await client.get("/coins")).text();
  const match = /data-testid="coin-balance"[^>]*>([\d,]+)</.exec(html);
  if (!match?.[1]) throw new Error("no balance on /coins");
  return Number(match[1].replace(/,/g, ""));
}

/** A signed test-provider event, as the test provider's page sends it. */
function signed(body: unknown, secret = TEST_SECRET, timestamp = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  const v1 = crypto.createHmac("sha256", secret).update(`${timestamp}.${raw}`).digest("hex");
  return { raw, header: `t=${timestamp},v1=${v1}` };
}

/** A provider's server-to-server POST: no Origin, no Sec-Fetch-Site, no cookies. */
function webhook(base: string, provider: string, raw: string, headers: Record<string, string>) {
  return fetch(`${base}/webhooks/${provider}`, {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function buy(client: Client, packKey: string) {
  const response = await client.post("/coins", { packKey });
  expect(response.status).toBe(302);
  return response.headers.get("location") ?? "";
}

describe("test provider over HTTP (embedded database)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cc-pay-")),
      TEST_PAYMENT_SECRET: TEST_SECRET,
      CHECKOUT_LIMIT_PER_HOUR: "6",
    });
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it("sells a pack through the hosted test page: approve credits, decline does not", async () => {
    const client = new Client(server.url);
    await register(client, server);
    expect(await balance(client)).toBe(3);

    const page = await buy(client, "coins-5");
    expect(page).toMatch(/^\/pay\/test\/tps_/);
    const hosted = await client.get(page);
    expect(hosted.status).toBe(200);
    expect(await hosted.text()).toContain("This is a test payment page. No real money moves.");
    expect(await balance(client)).toBe(3);

    const approved = await client.post(page, { decision: "approve" });
    expect(approved.status).toBe(302);
    const back = approved.headers.get("location") ?? "";
    expect(back).toMatch(/^\/coins\?payment=\d+$/);
    expect(await (await client.get(back)).text()).toContain(
      "Payment confirmed: 5 coins were added to your balance.",
    );
    expect(await balance(client)).toBe(8);

    const second = await buy(client, "coins-12");
    const declined = await client.post(second, { decision: "decline" });
    const result = await (await client.get(declined.headers.get("location") ?? "")).text();
    expect(result).toContain("The payment was declined. Nothing was charged and your balance is unchanged.");
    expect(await balance(client)).toBe(8);

    const account = await (await client.get("/account")).text();
    expect(account).toContain("5 coins");
    expect(account).toContain("Declined");
  });

  it("takes the price from the server, never from the form", async () => {
    const client = new Client(server.url);
    await register(client, server);
    expect((await client.post("/coins", { packKey: "coins-5", priceCents: "1", coins: "500" })).status).toBe(
      302,
    );
    expect((await client.post("/coins", { packKey: "no-such-pack" })).status).toBe(404);
    expect((await client.post("/coins", { packKey: "<script>" })).status).toBe(400);
    expect((await client.post("/pay/test/tps_unknown", { decision: "approve" })).status).toBe(404);
    const anonymous = await new Client(server.url).post("/coins", { packKey: "coins-5" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login/);
  });

  it("lets a provider's webhook through the origin check, but not a browser's cross-site POST", async () => {
    const { raw, header } = signed({
      id: `evt_unknown_${Date.now()}`,
      type: "checkout.approved",
      data: { session: "tps_nobody", amountCents: 99, currency: "USD" },
    });
    const ok = await webhook(server.url, "test", raw, { "x-test-payment-signature": header });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const crossSite = await webhook(server.url, "test", raw, {
      "x-test-payment-signature": header,
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.status).toBe(403);
    expect((await fetch(`${server.url}/webhooks/test`)).status).toBe(405);
    expect((await webhook(server.url, "stripe", raw, {})).status).toBe(404);
  });

  it("answers a bad signature with 400 and credits nothing", async () => {
    const client = new Client(server.url);
    await register(client, server);
    const page = await buy(client, "coins-65");
    const session = page.replace("/pay/test/", "");
    const body = {
      id: `evt_${session}_forged`,
      type: "checkout.approved",
      data: { session, amountCents: 899, currency: "USD" },
    };
    const forged = signed(body, "a".repeat(64));
    const stale = signed(body, TEST_SECRET, Math.floor(Date.now() / 1000) - 600);
    const good = signed(body);
    for (const [raw, header] of [
      [forged.raw, forged.header],
      [stale.raw, stale.header],
      [good.raw.replace("899", "1"), good.header],
      [good.raw, "t=1,v1=zz"],
      ["not json", good.header],
    ] as const) {
      const response = await webhook(server.url, "test", raw, { "x-test-payment-signature": header });
      expect(response.status).toBe(400);
    }
    expect((await webhook(server.url, "test", good.raw, {})).status).toBe(400);
    expect(await balance(client)).toBe(3);
    expect(server.output()).toContain("bad webhook signature");
    expect(server.output()).not.toContain(TEST_SECRET);
    // The genuine event still goes through afterwards.
    expect(
      (await webhook(server.url, "test", good.raw, { "x-test-payment-signature": good.header })).status,
    ).toBe(200);
    expect(await balance(client)).toBe(68);
  });

  it("keeps personal pages out of shared caches", async () => {
    const client = new Client(server.url);
    await register(client, server);
    for (const page of ["/coins", await buy(client, "coins-5")]) {
      const response = await client.get(page);
      expect(response.headers.get("cache-control") ?? "").not.toMatch(/public/);
    }
  });

  it("limits checkouts per IP", async () => {
    const client = new Client(server.url);
    await register(client, server);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.post("/coins", { packKey: "coins-5" })).status);
    expect(statuses).toContain(429);
    const refused = await client.post("/coins", { packKey: "coins-5" });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many checkouts from your network.");
  });
});

describe("Stripe over HTTP (local fake Stripe)", () => {
  let server: RunningServer;
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await startServer({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cc-stripe-")),
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.base,
    });
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await fake.close();
  });

  it("sends the reader to Stripe Checkout and credits on the signed webhook, verified over the raw body", async () => {
    const client = new Client(server.url);
    await register(client, server);
    const location = await buy(client, "coins-12");
    expect(location).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const session = [...fake.sessions.values()].at(-1) ?? {};
    expect(fake.requests.at(-1)?.idempotencyKey).toMatch(/^checkout:payment:\d+$/);
    expect(await balance(client)).toBe(3);

    const completed = { ...session, payment_status: "paid", status: "complete", payment_intent: "pi_http_1" };
    const bad = fake.event("checkout.session.completed", completed, { secret: "whsec_wrong" });
    expect(
      (await webhook(server.url, "stripe", bad.payload, { "stripe-signature": bad.signature })).status,
    ).toBe(400);
    expect(await balance(client)).toBe(3);

    const good = fake.event("checkout.session.completed", completed);
    // Re-serialised JSON (other spacing) is not the signed body.
    const reformatted = JSON.stringify(JSON.parse(good.payload), null, 2);
    expect(
      (await webhook(server.url, "stripe", reformatted, { "stripe-signature": good.signature })).status,
    ).toBe(400);
    const delivered = await webhook(server.url, "stripe", good.payload, {
      "stripe-signature": good.signature,
    });
    expect(delivered.status).toBe(200);
    expect(await balance(client)).toBe(15);
    expect(
      (await webhook(server.url, "stripe", good.payload, { "stripe-signature": good.signature })).status,
    ).toBe(200);
    expect(await balance(client)).toBe(15);
    expect((await webhook(server.url, "test", good.payload, {})).status).toBe(404);
  });
});

describe.runIf(inject("postgres"))("money races on PostgreSQL", () => {
  let server: RunningServer;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let sql: pg.Client;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    server = await startServer({
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cc-pay-pg-")),
      DATABASE_URL: database.url,
      TEST_PAYMENT_SECRET: TEST_SECRET,
    });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql.end();
    expect(await server.stop()).toBe(0);
    await database.drop();
  });

  it("50 parallel unlocks of 10 paid chapters with 6 coins: exactly 6 unlocks, balance 0, ledger 0, no 5xx", async () => {
    // Ten released paid chapters: the demo's 4-9 plus 1-3 and 10 made paid and released.
    await sql.query(
      "update chapters set coins_required = 1, release_at = now() - interval '1 day' where number in (1, 2, 3, 10)",
    );
    const client = new Client(server.url);
    const name = await register(client, server);
    const {
      rows: [user],
    } = await sql.query("select id from users where username = $1", [name]);
    await sql.query("begin");
    await sql.query(
      "insert into coin_ledger (user_id, delta, reason, reference, idempotency_key) values ($1, 3, 'admin', 'test', $2)",
      [user.id, `admin:${user.id}:race`],
    );
    await sql.query("update users set coin_balance = coin_balance + 3 where id = $1", [user.id]);
    await sql.query("commit");

    const numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const attempts = Array.from({ length: 50 }, (_, i) => numbers[i % 10] as number);
    const answers = await Promise.all(
      attempts.map(async (number) => ({
        number,
        status: (await client.post(`/chapter/${number}`, { intent: "unlock" })).status,
      })),
    );
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);

    const { rows: unlocks } = await sql.query(
      "select c.number from chapter_unlocks u join chapters c on c.id = u.chapter_id where u.user_id = $1",
      [user.id],
    );
    const unlocked = new Set(unlocks.map((row) => row.number as number));
    expect(unlocks).toHaveLength(6);
    const {
      rows: [money],
    } = await sql.query(
      "select u.coin_balance, (select coalesce(sum(delta), 0)::int from coin_ledger where user_id = u.id) as ledger, (select count(*)::int from coin_ledger where user_id = u.id and reason = 'unlock') as debits from users u where u.id = $1",
      [user.id],
    );
    expect(money).toEqual({ coin_balance: 0, ledger: 0, debits: 6 });
    // Exactly the six requests that unlocked succeed; every other answer (a repeat that changed nothing, or
    // too few coins) is a 4xx.
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded).toHaveLength(6);
    expect(new Set(succeeded.map((answer) => answer.number))).toEqual(unlocked);
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it("credits once when the same confirmed-payment event is delivered 10 times at once", async () => {
    const client = new Client(server.url);
    await register(client, server);
    const page = await buy(client, "coins-30");
    const session = page.replace("/pay/test/", "");
    const { raw, header } = signed({
      id: `evt_${session}_burst`,
      type: "checkout.approved",
      data: { session, amountCents: 449, currency: "USD" },
    });
    const deliveries = await Promise.all(
      Array.from({ length: 10 }, () =>
        webhook(server.url, "test", raw, { "x-test-payment-signature": header }),
      ),
    );
    expect(deliveries.map((response) => response.status)).toEqual(Array(10).fill(200));
    const bodies = await Promise.all(deliveries.map((response) => response.json()));
    expect(bodies.filter((body) => body.duplicate === false)).toHaveLength(1);
    expect(await balance(client)).toBe(33);
    const {
      rows: [row],
    } = await sql.query(
      "select count(*)::int as n from coin_ledger where reason = 'purchase' and reference like 'payment:%' and user_id = (select user_id from payments where provider_session_id = $1)",
      [session],
    );
    expect(row.n).toBe(1);
  });
});
