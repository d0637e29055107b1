/** Votes on art (the Analyst tier's perk) and the credits page's acknowledgements. */
import { sql } from "drizzle-orm";
import {
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { uploads } from "./uploads";
import { users } from "./users";

/** A poll the author opens on art: a question, open from `opensAt` until `closesAt`. */
export const polls = pgTable(
  "polls",
  {
    id: serial("id").primaryKey(),
    question: text("question").notNull(),
    opensAt: timestamp("opens_at", { withTimezone: true }).notNull(),
    closesAt: timestamp("closes_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("polls_closes_after_opens", sql`${t.closesAt} > ${t.opensAt}`),
    check("polls_question_length", sql`char_length(${t.question}) between 1 and 200`),
    index("polls_opens_at").on(t.opensAt),
  ],
);

/** A poll's options (2 to 8), each a label and an uploaded image, in `position` order. */
export const pollOptions = pgTable(
  "poll_options",
  {
    id: serial("id").primaryKey(),
    pollId: integer("poll_id")
      .notNull()
      .references(() => polls.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    label: text("label").notNull(),
    /** The image; an upload an option shows is never deleted under it. */
    uploadId: integer("upload_id")
      .notNull()
      .references(() => uploads.id, { onDelete: "restrict" }),
  },
  (t) => [
    unique("poll_options_poll_position").on(t.pollId, t.position),
    // The target of the votes' foreign key that keeps a vote's option in its own poll.
    unique("poll_options_id_poll").on(t.id, t.pollId),
    check("poll_options_position_range", sql`${t.position} between 0 and 7`),
    check("poll_options_label_length", sql`char_length(${t.label}) between 1 and 80`),
  ],
);

/**
 * One vote per reader per poll: the primary key decides, so concurrent votes by one reader end as one row
 * (an upsert: the last one counts). The option belongs to the poll (a composite foreign key).
 */
export const pollVotes = pgTable(
  "poll_votes",
  {
    pollId: integer("poll_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    optionId: integer("option_id").notNull(),
    votedAt: timestamp("voted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "poll_votes_pkey", columns: [t.pollId, t.userId] }),
    foreignKey({
      name: "poll_votes_option_of_poll",
      columns: [t.optionId, t.pollId],
      foreignColumns: [pollOptions.id, pollOptions.pollId],
    }).onDelete("cascade"),
    index("poll_votes_option").on(t.optionId),
    index("poll_votes_user").on(t.userId),
  ],
);

/** The credits page's own text: the author's acknowledgements (Markdown), one row. */
export const creditsPage = pgTable(
  "credits_page",
  {
    id: integer("id").primaryKey().default(1),
    acknowledgementsMd: text("acknowledgements_md").notNull().default(""),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("credits_page_single_row", sql`${t.id} = 1`),
    check("credits_page_length", sql`octet_length(${t.acknowledgementsMd}) <= 20000`),
  ],
);
