import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, fundraiserGoals, payments, subscriptions, supportTiers, users } from "#db/schema";
import {
  createGoal,
  deleteGoal,
  getGoalForEdit,
  listTiersForEdit,
  saveGoal,
  saveTier,
} from "~/features/fundraiser/fundraiser-editing.server";
import { type GoalInput, goalSchema, tierSchema } from "~/features/fundraiser/fundraiser-form";
import { startCheckout } from "~/features/payments/checkout.server";
import { runTestBilling } from "~/features/payments/test-billing.server";
import { answerTestCheckout } from "~/features/payments/test-checkout.server";
import { refreshContentRevision, startRevisionPoll, stopRevisionPoll } from "~/features/site/revision.server";
import { parseForm } from "~/lib/forms";
import { action as goalAction } from "~/routes/admin/goal";
import { action as tiersAction } from "~/routes/admin/tiers";
import { loader as fundraiserLoader } from "~/routes/fundraiser";
import { loader as homeLoader } from "~/routes/home";
import { post, statusOf } from "../support/actions";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, type TestReader } from "../support/factories";
import { unique } from "../support/unique";

/**
 * The fundraiser's tiers and goals from the admin (/admin/tiers, /admin/goals): checked forms, saves from a
 * digest (a stale one is a conflict), audited, shown by the public pages at their next request; a tier's new
 * price applies to new subscriptions only.
 */
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "cc-fundraiser-admin-"));

const DAY = 24 * 60 * 60 * 1000;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

function parsedTier(fields: Record<string, string>) {
  const result = parseForm(tierSchema, form(fields));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

/** A goal as the action hands it on: its wall-clock times read in UTC here. */
function goalInput(fields: Record<string, string>): GoalInput {
  const result = parseForm(goalSchema, form(fields));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const { startsLocal, endsLocal, ...rest } = result.data;
  return {
    ...rest,
    startsAt: new Date(`${startsLocal}:00Z`),
    endsAt: endsLocal ? new Date(`${endsLocal}:00Z`) : null,
  };
}

/** A signed-in author (a reader given the role), with the cookie the admin's actions read. */
async function author(
  prefix = "fundauthor",
): Promise<TestReader & { actor: { via: "admin"; userId: number } }> {
  const reader = await createReader({ prefix });
  await db().update(users).set({ role: "author" }).where(eq(users.id, reader.id));
  return { ...reader, actor: { via: "admin", userId: reader.id } };
}

/** The tier's form as the admin page fills it, with `change` applied. */
async function tierFields(key: string, change: Record<string, string> = {}) {
  const opened = (await listTiersForEdit()).find(({ row }) => row.key === key);
  if (!opened) throw new Error(`no tier ${key}`);
  const { row, base } = opened;
  return {
    key,
    name: row.name,
    amount: String(row.amountCents / 100),
    perks: row.perks.join("\n"),
    pitch: row.pitch,
    order: String(row.sortOrder),
    base,
    ...change,
  };
}

const goalFields = {
  title: "A press for the second volume",
  descriptionMd: "Paper, ink and the binder.\r\n\r\nSee **the plan**.",
  period: "campaign",
  target: "2500",
  currency: "usd",
  startsLocal: "2026-03-01T09:00",
  endsLocal: "2026-09-01T00:00",
};

/** An admin action answering a form post from `who`, as its status (and body or redirect). */
const act = (
  // biome-ignore lint/suspicious/noExplicitAny: actions are called with the subset of arguments they read
  action: (args: any) => Promise<unknown>,
  url: string,
  who: TestReader,
  fields: Record<string, string>,
  params: Record<string, string> = {},
) => statusOf(() => action({ request: post(url, who, fields), params, context: {} }));

// biome-ignore lint/suspicious/noExplicitAny: loaders are called with the subset of arguments they read
const call = <T>(loader: (args: any) => T, url: string): T =>
  loader({ request: new Request(`http://localhost${url}`), params: {}, context: {} });

describe.each(drivers)("the fundraiser's tiers and goals from the admin on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    // The pages' memo kept per content revision, as on a server: a change must move it.
    await startRevisionPoll(60 * 60 * 1000);
  });
  afterAll(async () => {
    stopRevisionPoll();
    await handle.close();
  });

  it("edits a tier's perks (added, removed, reordered) and pitch: /fundraiser shows them at its next request", async () => {
    const writer = await author();
    const { actor } = writer;
    const before = await call(fundraiserLoader, "/fundraiser");
    expect(before.tiers.find((tier) => tier.key === "observer")?.perks).toEqual([
      "Early chapter access",
      "Discord role",
    ]);
    const fields = await tierFields("observer", {
      perks: "Discord role\r\n\r\n  A postcard from the Quarter  \r\nEarly chapter access\n",
      pitch: "Keep watch from the wall.",
    });
    const answer = await act(tiersAction, "/admin/tiers", writer, fields);
    expect(answer).toMatchObject({ status: 302, location: "/admin/tiers?saved=observer#tier-observer" });
    const after = await call(fundraiserLoader, "/fundraiser");
    expect(after.tiers.find((tier) => tier.key === "observer")).toMatchObject({
      perks: ["Discord role", "A postcard from the Quarter", "Early chapter access"],
      pitch: "Keep watch from the wall.",
      amountCents: 300,
    });
    // The same form again is stale: a conflict, nothing overwritten.
    const stale = await act(tiersAction, "/admin/tiers", writer, { ...fields, perks: "Only this" });
    expect(stale).toMatchObject({ status: 409, body: { conflict: true, tier: "observer" } });
    const [row] = await db().select().from(supportTiers).where(eq(supportTiers.key, "observer"));
    expect(row?.perks).toHaveLength(3);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "tier.update"), eq(auditLog.actorId, actor.userId)));
    expect(entry).toMatchObject({
      subjectType: "tier",
      subjectId: "observer",
      before: { perks: ["Early chapter access", "Discord role"], pitch: expect.any(String) },
      after: { perks: ["Discord role", "A postcard from the Quarter", "Early chapter access"] },
    });
    // Put back, for the tests after this one.
    expect(
      await saveTier(
        parsedTier(await tierFields("observer", { perks: "Early chapter access\nDiscord role" })),
        actor,
      ),
    ).toEqual({ ok: true });
  });

  it("keeps the prices rising with the tier, and refuses a key that is no tier", async () => {
    const { actor } = await author();
    expect(await saveTier(parsedTier(await tierFields("analyst", { amount: "3" })), actor)).toEqual({
      ok: false,
      reason: "priceOrder",
    });
    expect(await saveTier(parsedTier(await tierFields("first_human", { amount: "7" })), actor)).toEqual({
      ok: false,
      reason: "priceOrder",
    });
    const writer = await author();
    const unknown = await act(tiersAction, "/admin/tiers", writer, {
      ...(await tierFields("analyst")),
      key: "patron",
    });
    expect(unknown.status).toBe(404);
  });

  it("a new price applies to new subscriptions: a running one renews at its own price", async () => {
    const { actor } = await author();
    const reader = await createReader({ prefix: "oldprice" });
    const { url } = await startCheckout(
      reader,
      { kind: "subscription", tierKey: "analyst" },
      { ip: unique() },
    );
    await answerTestCheckout(url.replace("/pay/test/", ""), "approve");
    expect(await saveTier(parsedTier(await tierFields("analyst", { amount: "9.50" })), actor)).toEqual({
      ok: true,
    });
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.userId, reader.id));
    if (!sub) throw new Error("no subscription");
    await runTestBilling(sub, "renew", new Date(sub.currentPeriodEnd.getTime() + 60_000));
    const paid = await db()
      .select({ amountCents: payments.amountCents })
      .from(payments)
      .where(and(eq(payments.userId, reader.id), eq(payments.status, "paid")))
      .orderBy(asc(payments.id));
    expect(paid.map((row) => row.amountCents)).toEqual([700, 700]);
    // A new subscriber is charged the new price.
    const newcomer = await createReader({ prefix: "newprice" });
    const started = await startCheckout(
      newcomer,
      { kind: "subscription", tierKey: "analyst" },
      { ip: unique() },
    );
    const [pending] = await db().select().from(payments).where(eq(payments.id, started.paymentId));
    expect(pending?.amountCents).toBe(950);
    // Put back.
    expect(await saveTier(parsedTier(await tierFields("analyst", { amount: "7" })), actor)).toEqual({
      ok: true,
    });
  });

  it("creates, edits and deletes a goal: the home page and /fundraiser follow at their next request", async () => {
    const { actor } = await author();
    const title = unique("Lamp oil ");
    const now = Date.now();
    const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    // A campaign started yesterday is the newest started campaign: the one both pages show.
    const created = await createGoal(
      goalInput({ ...goalFields, title, startsLocal: local(now - DAY), endsLocal: "" }),
      actor,
    );
    if (!created.ok) throw new Error(created.reason);
    // What the action does after a save: this instance reads the revision the save moved (the trigger).
    await refreshContentRevision();
    const home = await call(homeLoader, "/");
    expect(home.fundraiser?.goal).toMatchObject({ title, targetCents: 250_000, currency: "USD" });
    const page = await call(fundraiserLoader, "/fundraiser");
    expect(page.campaign).toMatchObject({
      title,
      descriptionMd: "Paper, ink and the binder.\n\nSee **the plan**.",
    });
    expect(page.campaign?.html).toContain("<strong>the plan</strong>");

    const opened = await getGoalForEdit(created.id);
    if (!opened) throw new Error("not found");
    const edit = (change: Record<string, string>) => ({
      ...goalInput({ ...goalFields, title, startsLocal: local(now - DAY), endsLocal: "", ...change }),
      base: opened.base,
    });
    expect(await saveGoal(created.id, edit({ target: "3000.50" }), actor)).toEqual({
      ok: true,
      id: created.id,
    });
    await refreshContentRevision();
    expect((await call(homeLoader, "/")).fundraiser?.goal.targetCents).toBe(300_050);
    expect(await saveGoal(created.id, edit({ target: "1" }), actor)).toEqual({
      ok: false,
      reason: "conflict",
    });
    // Another goal's title is taken; an end before the start is refused before the database sees it.
    const otherTitle = unique("Other ");
    const other = await createGoal(goalInput({ ...goalFields, title: otherTitle }), actor);
    if (!other.ok) throw new Error(other.reason);
    const reopened = await getGoalForEdit(created.id);
    expect(
      await saveGoal(
        created.id,
        { ...goalInput({ ...goalFields, title: otherTitle }), base: reopened?.base },
        actor,
      ),
    ).toEqual({ ok: false, reason: "titleTaken" });
    expect(
      await createGoal(
        { ...goalInput(goalFields), title: unique("Backwards "), endsAt: new Date("2026-01-01") },
        actor,
      ),
    ).toEqual({
      ok: false,
      reason: "endsBeforeStart",
    });

    expect((await deleteGoal(created.id, actor))?.title).toBe(title);
    await refreshContentRevision();
    expect((await call(homeLoader, "/")).fundraiser?.goal.title).toBe("Volume 2 illustrated edition");
    expect((await call(fundraiserLoader, "/fundraiser")).campaign?.title).toBe(
      "Volume 2 illustrated edition",
    );
    expect(await deleteGoal(created.id, actor)).toBeUndefined();
    await deleteGoal(other.id, actor);
    const actions = await db()
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "goal"), eq(auditLog.subjectId, String(created.id))));
    expect(actions.map((entry) => entry.action)).toEqual(["goal.create", "goal.update", "goal.delete"]);
  });

  it("reads the goal's times in the author's zone, and answers bad input with messages, never a 500", async () => {
    const writer = await author();
    await db().update(users).set({ timeZone: "America/New_York" }).where(eq(users.id, writer.id));
    const title = unique("Zoned ");
    const answer = await act(goalAction, "/admin/goals/new", writer, { ...goalFields, title });
    expect(answer.status).toBe(302);
    const [row] = await db().select().from(fundraiserGoals).where(eq(fundraiserGoals.title, title));
    // 09:00 in New York on 1 March 2026 (EST, UTC-5); 1 September 00:00 (EDT, UTC-4).
    expect(row?.startsAt.toISOString()).toBe("2026-03-01T14:00:00.000Z");
    expect(row?.endsAt?.toISOString()).toBe("2026-09-01T04:00:00.000Z");
    expect(answer.location).toBe(`/admin/goals/${row?.id}?saved=1`);
    const again = await act(goalAction, "/admin/goals/new", writer, { ...goalFields, title });
    expect(again).toMatchObject({
      status: 409,
      body: { errors: { title: "admin.goals.errors.titleTaken" } },
    });
    const bad = await act(goalAction, "/admin/goals/new", writer, {
      ...goalFields,
      title: "",
      endsLocal: "2025-01-01T00:00",
    });
    expect(bad).toMatchObject({
      status: 400,
      body: {
        errors: { title: "admin.goals.errors.title", endsLocal: "admin.goals.errors.ends" },
        values: { endsLocal: "2025-01-01T00:00" },
      },
    });
    const unconfirmed = await act(
      goalAction,
      `/admin/goals/${row?.id}`,
      writer,
      { intent: "delete" },
      { id: String(row?.id) },
    );
    expect(unconfirmed.status).toBe(400);
    const deleted = await act(
      goalAction,
      `/admin/goals/${row?.id}`,
      writer,
      { intent: "delete", confirm: "on" },
      { id: String(row?.id) },
    );
    expect(deleted).toMatchObject({
      status: 302,
      location: `/admin/goals?deleted=${encodeURIComponent(title)}`,
    });
    // A reader is answered the ordinary 404.
    const reader = await createReader({ prefix: "notauthor" });
    const refused = await act(goalAction, "/admin/goals/new", reader, { ...goalFields, title: unique("x") });
    expect(refused.status).toBe(404);

    const fields = [...Object.keys(goalFields), "base", "intent"];
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...fields), fc.string({ maxLength: 40 })),
        fc.constantFrom("/admin/goals/new", "/admin/goals/999999", "/admin/tiers"),
        async (posted, url) => {
          const id = url.split("/")[3];
          const result = await act(
            url === "/admin/tiers" ? tiersAction : goalAction,
            url,
            writer,
            posted,
            id && id !== "new" ? { id } : {},
          );
          expect([302, 400, 404, 409]).toContain(result.status);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("the tier and goal forms", () => {
  const tier = {
    key: "analyst",
    name: "Analyst",
    amount: "7",
    perks: "One\nTwo",
    pitch: "",
    order: "2",
    base: "a".repeat(43),
  };

  it("read a price in dollars, perks one a line, a currency in capitals", () => {
    expect(
      parseForm(tierSchema, form({ ...tier, amount: "$7.5", perks: "\n One \r\n\r\nTwo  \n" })),
    ).toMatchObject({
      ok: true,
      data: { amount: 750, perks: ["One", "Two"], order: 2 },
    });
    expect(parseForm(goalSchema, form(goalFields))).toMatchObject({
      ok: true,
      data: {
        target: 250_000,
        currency: "USD",
        descriptionMd: "Paper, ink and the binder.\n\nSee **the plan**.",
      },
    });
  });

  it("refuse each bad field with its message", () => {
    for (const [field, value, message] of [
      ["key", "patron", "admin.tiers.errors.key"],
      ["name", "", "admin.tiers.errors.name"],
      ["name", "n".repeat(61), "admin.tiers.errors.name"],
      ["amount", "0.99", "admin.tiers.errors.amount"],
      ["amount", "1000.01", "admin.tiers.errors.amount"],
      ["amount", "7,00", "admin.tiers.errors.amount"],
      ["amount", "1e3", "admin.tiers.errors.amount"],
      ["perks", Array.from({ length: 13 }, (_, n) => `Perk ${n}`).join("\n"), "admin.tiers.errors.perks"],
      ["perks", "p".repeat(201), "admin.tiers.errors.perks"],
      ["perks", "Same\nSame", "admin.tiers.errors.perks"],
      ["pitch", "x".repeat(501), "admin.tiers.errors.pitch"],
      ["order", "1.5", "admin.tiers.errors.order"],
      ["order", "1001", "admin.tiers.errors.order"],
      ["base", "stale", "admin.site.errors.base"],
    ] as const) {
      expect(
        parseForm(tierSchema, form({ ...tier, [field]: value })),
        `${field}=${value.slice(0, 20)}`,
      ).toEqual({
        ok: false,
        errors: { [field]: message },
      });
    }
    for (const [field, value, message] of [
      ["title", " ", "admin.goals.errors.title"],
      ["title", "t".repeat(121), "admin.goals.errors.title"],
      ["descriptionMd", "語".repeat(7000), "admin.goals.errors.description"],
      ["period", "weekly", "admin.goals.errors.period"],
      ["target", "0", "admin.goals.errors.target"],
      ["target", "10000000", "admin.goals.errors.target"],
      ["currency", "US", "admin.goals.errors.currency"],
      ["currency", "ZZZ", "admin.goals.errors.currency"],
      ["startsLocal", "2026-02-30T10:00", "admin.goals.errors.starts"],
      ["startsLocal", "2026-13-01T10:00", "admin.goals.errors.starts"],
      ["startsLocal", "2026-01-01T24:00", "admin.goals.errors.starts"],
      ["startsLocal", "0001-01-01T00:00", "admin.goals.errors.starts"],
      ["startsLocal", "", "admin.goals.errors.starts"],
      ["endsLocal", "2026-03-01T09:00", "admin.goals.errors.ends"],
      ["endsLocal", "tomorrow", "admin.goals.errors.ends"],
    ] as const) {
      expect(
        parseForm(
          goalSchema,
          // A start alone: a bad start is not also an end before it.
          form({ ...goalFields, ...(field !== "endsLocal" && { endsLocal: "" }), [field]: value }),
        ),
        `${field}=${value.slice(0, 20)}`,
      ).toEqual({
        ok: false,
        errors: { [field]: message },
      });
    }
  });

  it("never throw on any fields (fuzz)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...Object.keys(tier), ...Object.keys(goalFields)),
          fc.string({ maxLength: 300 }),
        ),
        (fields) => {
          for (const schema of [tierSchema, goalSchema]) {
            const result = parseForm(schema, form(fields));
            if (!result.ok)
              for (const message of Object.values(result.errors))
                expect(message).toMatch(/^admin\.(tiers|goals|site)\.errors\./);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.runIf(drivers.includes("postgres"))("tiers and goals under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("of four saves of one tier from the same form at once, one is saved and three are conflicts", async () => {
    const { actor } = await author("tierracer");
    const opened = await tierFields("first_human");
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map((n) => saveTier(parsedTier({ ...opened, pitch: `Pitch ${n}` }), actor)),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(3);
  });

  it("two tiers' prices changed at once never cross: one save waits for the other and is refused", async () => {
    const { actor } = await author("priceracer");
    // Analyst ($7) up to $14 and First Human ($15) down to $8 would each be fine alone, never together.
    const [analyst, firstHuman] = [
      parsedTier(await tierFields("analyst", { amount: "14" })),
      parsedTier(await tierFields("first_human", { amount: "8" })),
    ];
    const outcomes = await Promise.all([saveTier(analyst, actor), saveTier(firstHuman, actor)]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "priceOrder")).toHaveLength(1);
  });

  it("of four goals created with one title at once, one is created and three are told the title is taken", async () => {
    const { actor } = await author("goalracer");
    const title = unique("Race ");
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map(() => createGoal(goalInput({ ...goalFields, title }), actor)),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "titleTaken")).toHaveLength(3);
  });

  it("of two saves of one goal from the same form at once, one is saved and one is a conflict", async () => {
    const { actor } = await author("goaleditor");
    const title = unique("Edited ");
    const created = await createGoal(goalInput({ ...goalFields, title }), actor);
    if (!created.ok) throw new Error(created.reason);
    const base = (await getGoalForEdit(created.id))?.base;
    const outcomes = await Promise.all(
      ["100", "200"].map((target) =>
        saveGoal(created.id, { ...goalInput({ ...goalFields, title, target }), base }, actor),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "conflict")).toHaveLength(1);
  });
});
