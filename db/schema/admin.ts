/** The author's admin: the record of every change made through it. */
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * One row per admin change: who (null once their account is gone, or for the command line), what (an action
 * name and the thing changed), when, and the thing before and after. Written in the change's transaction.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** What did it: "admin" (a page of the admin) or "cli" (`npm run admin`). */
    via: text("via", { enum: ["admin", "cli"] }).notNull(),
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_log_created_at").on(t.createdAt),
    index("audit_log_subject").on(t.subjectType, t.subjectId),
    check("audit_log_via_known", sql`${t.via} in ('admin', 'cli')`),
  ],
);
