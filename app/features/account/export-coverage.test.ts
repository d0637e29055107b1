import { getTableName } from "drizzle-orm";
import { integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "#db/schema";
import { exportedTables, notExported } from "./export.server";
import { exportGaps, tablesAboutReaders } from "./export-coverage";

describe("the data download's coverage of the schema", () => {
  it("exports or excludes, with a reason, every table about a reader", () => {
    expect(exportGaps(schema, exportedTables, notExported)).toEqual([]);
  });

  it("finds the tables about readers by their keys, also through a payment", () => {
    const names = tablesAboutReaders(schema).map(getTableName).sort();
    expect(names).toEqual(
      expect.arrayContaining(["users", "sessions", "reading_progress", "payments", "payment_events"]),
    );
    expect(names).not.toContain("chapters");
    expect(names).not.toContain("rate_limits");
  });

  it("fails for a new table referencing users, or with a user_id column, left out of the export", () => {
    const wishlist = pgTable("wishlist", {
      id: serial("id").primaryKey(),
      userId: integer("user_id").references(() => schema.users.id),
    });
    const notes = pgTable("notes", { id: serial("id").primaryKey(), ownerUserId: integer("owner_user_id") });
    const linked = pgTable("wishlist_items", {
      id: serial("id").primaryKey(),
      wishlistId: integer("wishlist_id").references(() => wishlist.id),
      note: text("note"),
    });
    expect(exportGaps({ ...schema, wishlist, notes, linked }, exportedTables, notExported)).toEqual([
      "table wishlist is neither exported nor excluded",
      "table notes is neither exported nor excluded",
      "table wishlist_items is neither exported nor excluded",
    ]);
  });

  it("fails for a withheld column that does not exist or an exclusion without a reason", () => {
    const extra = pgTable("extra", { id: serial("id").primaryKey(), userId: integer("user_id") });
    expect(
      exportGaps(
        { ...schema, extra },
        [...exportedTables, { table: schema.users, withheld: { pasword: "typo" } }],
        [...notExported, { table: extra, reason: " " }],
      ),
    ).toEqual(["users.pasword is withheld but no such column", "extra is excluded without a reason"]);
  });
});
