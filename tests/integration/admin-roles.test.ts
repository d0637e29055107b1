import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import { auditLog, users } from "#db/schema";
import { setAuthor } from "~/features/admin/roles.server";
import { listAudit } from "~/features/audit/log.server";
import { drivers, openTestDatabase } from "../support/database";
import { createReader } from "../support/factories";

/** The author role: granted and revoked with an audit row each, never leaving the site without an author. */
const roleOf = async (id: number) =>
  (await db().select({ role: users.role }).from(users).where(eq(users.id, id)))[0]?.role;

describe.each(drivers)("author roles on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
    await db().update(users).set({ role: "reader" });
  });
  afterAll(() => handle.close());

  it("grants, refuses to revoke the last author, revokes another, and audits each change", async () => {
    const first = await createReader({ prefix: "quill" });
    const second = await createReader({ prefix: "quill" });
    expect(await setAuthor(` ${first.email.toUpperCase()} `, true, { via: "cli" })).toBe("granted");
    expect(await setAuthor(first.email, true, { via: "cli" })).toBe("unchanged");
    expect(await setAuthor(first.email, false, { via: "admin", userId: first.id })).toBe("lastAuthor");
    expect(await roleOf(first.id)).toBe("author");
    expect(await setAuthor(second.email, true, { via: "admin", userId: first.id })).toBe("granted");
    expect(await setAuthor(first.email, false, { via: "admin", userId: second.id })).toBe("revoked");
    expect(await roleOf(first.id)).toBe("reader");
    expect(await setAuthor("nobody@example.com", true, { via: "cli" })).toBe("unknownEmail");

    const { entries } = await listAudit({ subjectType: "user" });
    expect(entries.map((entry) => [entry.action, entry.via, entry.actor])).toEqual([
      ["author.revoke", "admin", second.username],
      ["author.grant", "admin", first.username],
      ["author.grant", "cli", null],
    ]);
    expect(entries[0]).toMatchObject({ before: { role: "author" }, after: { role: "reader" } });
    expect(await listAudit({ action: "author.revoke" })).toMatchObject({
      entries: [{ subjectId: String(first.id) }],
    });
  });
});

describe.runIf(drivers.includes("postgres"))("author roles under concurrency", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres", { content: false });
  });
  afterAll(() => handle.close());

  it("of two authors revoking each other at once, exactly one is revoked", async () => {
    for (let round = 0; round < 8; round++) {
      await db().update(users).set({ role: "reader" });
      const a = await createReader({ prefix: "duel" });
      const b = await createReader({ prefix: "duel" });
      await db().update(users).set({ role: "author" }).where(eq(users.id, a.id));
      await db().update(users).set({ role: "author" }).where(eq(users.id, b.id));
      const outcomes = await Promise.all([
        setAuthor(b.email, false, { via: "admin", userId: a.id }),
        setAuthor(a.email, false, { via: "admin", userId: b.id }),
      ]);
      expect(outcomes.sort()).toEqual(["lastAuthor", "revoked"]);
      const authors = await db().select({ id: users.id }).from(users).where(eq(users.role, "author"));
      expect(authors).toHaveLength(1);
    }
    const revocations = await db().select().from(auditLog).where(eq(auditLog.action, "author.revoke"));
    expect(revocations).toHaveLength(8);
  });
});
