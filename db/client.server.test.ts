import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql, TransactionRollbackError } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { lookUpSessionToken } from "~/features/auth/session.server";
import { drivers, openTestDatabase } from "../tests/support/database";
import { type DatabaseHandle, installedPgliteVersion, openDatabase } from "./client.server";
import { PGLITE_VERSION_READ } from "./pglite-statements.server";
import { chapters, users } from "./schema";

// Values that hand-made quoting gets wrong: quotes, backslashes (E'' strings), a placeholder in the text.
const echo = (handle: DatabaseHandle, value: string) =>
  handle.preparedRows("echo_pair", "select $1::text, $2::text, length($1)", [value, "x"]);
const awkward = [
  "it's",
  "''; drop table users; --",
  "back\\slash\\'",
  "$1",
  "$$ $tag$",
  "E'\\x00'",
  "ünï\u2028",
];

describe.each(drivers)("prepared statements (%s)", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
  });
  afterAll(() => handle.close());

  it("passes parameters apart from the text: every value comes back as it went in", async () => {
    for (const value of awkward) {
      expect(await echo(handle, value)).toEqual([[value, "x", [...value].length]]);
    }
    expect(await handle.db.select({ count: sql<number>`count(*)::int` }).from(users)).toEqual([{ count: 0 }]);
  });

  it("refuses a NUL byte with a database error the caller can catch, and keeps answering", async () => {
    const refused = await echo(handle, "a\0b").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: "22021" });
    expect(await echo(handle, "a")).toEqual([["a", "x", 1]]);
  });

  it("waits for another request's open transaction instead of running inside it", async () => {
    const count = () =>
      handle.preparedRows("count_pending", "select count(*)::int from users where username = $1", [
        "pending",
      ]);
    // Parsed before, so the count is one round trip that goes out as soon as it is asked for.
    expect(await count()).toEqual([[0]]);
    let inserted = () => {};
    const open = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let countAsked = () => {};
    const asked = new Promise<void>((resolve) => {
      countAsked = resolve;
    });
    const transaction = handle.db.transaction(async (tx) => {
      await tx.insert(users).values({ username: "pending", email: "pending@example.com" });
      inserted();
      await asked;
      // The transaction's next statement goes out after the count: on PGlite's one connection, a count let
      // into the transaction would have run before it, and seen the row.
      expect(await tx.select().from(users).where(eq(users.username, "pending"))).toHaveLength(1);
      tx.rollback();
    });
    await open;
    const counted = count();
    countAsked();
    // Rolled back on purpose: any other failure inside it fails the test.
    await expect(transaction).rejects.toBeInstanceOf(TransactionRollbackError);
    expect(await counted).toEqual([[0]]);
    expect(await handle.db.select().from(users).where(eq(users.username, "pending"))).toEqual([]);
  });

  it("finds no session for a token made of quotes, backslashes or a NUL byte", async () => {
    for (const token of [...awkward, "a\0b"]) expect(await lookUpSessionToken(token)).toBeUndefined();
  });
});

describe("the PGlite internals the prepared statements use (ADR 74)", () => {
  it("are those of the version they were read in, and are still there", async () => {
    const declared = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      dependencies: Record<string, string>;
    };
    // Another version may have moved or dropped the locks: read db/pglite-statements.server.ts against it.
    expect(installedPgliteVersion()).toBe(PGLITE_VERSION_READ);
    expect(declared.dependencies["@electric-sql/pglite"]).toBe(PGLITE_VERSION_READ);
    const handle = await openTestDatabase("pglite", { content: false });
    try {
      const client = handle.pglite as unknown as Record<string, unknown>;
      for (const method of ["_runExclusiveTransaction", "_runExclusiveQuery", "execProtocol"])
        expect(typeof client[method]).toBe("function");
    } finally {
      await handle.close();
    }
  });
});

describe("a fresh PGlite data directory (ADR 52)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-template-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  // The tests' own template (the migrations and the demo content) stands for the build's.
  const template = inject("pgliteTemplate");

  it("starts from the template, and a data directory that holds a database never does again", async () => {
    const dataDir = path.join(dir, "pgdata");
    let handle = await openDatabase({ kind: "pglite", dataDir, template });
    expect(fs.existsSync(path.join(dataDir, "PG_VERSION"))).toBe(true);
    expect(await handle.db.select({ number: chapters.number }).from(chapters)).toHaveLength(11);
    await handle.db.delete(chapters);
    await handle.close();
    handle = await openDatabase({ kind: "pglite", dataDir, template });
    expect(await handle.db.select().from(chapters)).toEqual([]);
    await handle.close();
  });

  it("falls back to initialising one when there is no template", async () => {
    const dataDir = path.join(dir, "bare");
    const handle = await openDatabase({
      kind: "pglite",
      dataDir,
      template: path.join(dir, "missing.tar.gz"),
    });
    expect(await handle.db.execute(sql`select to_regclass('chapters') as found`)).toMatchObject({
      rows: [{ found: null }],
    });
    await handle.close();
  });
});
