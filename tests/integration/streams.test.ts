import { getTableName, is, type SQL, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, db } from "#db/client.server";
import * as schema from "#db/schema";
import {
  type ContentStream,
  type TableStreams,
  type TriggerFunction,
  tableStreams,
} from "#db/schema/streams";
import { drivers, openTestDatabase } from "../support/database";

async function rows<Row>(query: SQL) {
  return ((await db().execute(query)) as unknown as { rows: Row[] }).rows;
}

/** The schema's tables by export name. */
const schemaTables = new Map(
  Object.entries(schema).flatMap(([key, value]) => (is(value, PgTable) ? [[key, value] as const] : [])),
);

/** The declaration by SQL table name. */
const declared = new Map<string, TableStreams>(
  Object.entries(tableStreams).flatMap(([key, streams]) => {
    const table = schemaTables.get(key);
    return table ? [[getTableName(table), streams] as const] : [];
  }),
);

const contentFunctions: Record<ContentStream, TriggerFunction[]> = {
  everything: ["bump_content_revision"],
  chapter: ["bump_content_revision", "note_chapter_change"],
  comments: ["bump_comments_revision"],
  language: ["bump_content_revision", "note_translation_change"],
};
const contentStreamFunctions: TriggerFunction[] = [
  "bump_content_revision",
  "note_chapter_change",
  "note_translation_change",
  "bump_comments_revision",
];
const readerFunctions: TriggerFunction[] = [
  "note_session_event",
  "note_account_session_event",
  "note_reader_event",
];

describe.each(drivers)("the freshness streams declared in db/schema/streams.ts, on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver, { content: false });
  });
  afterAll(async () => {
    await handle.close();
  });

  it("classify every table of the schema and of the database", async () => {
    expect(Object.keys(tableStreams).sort()).toEqual([...schemaTables.keys()].sort());
    const live = await rows<{ name: string }>(sql`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`);
    expect(live.map((row) => row.name).sort()).toEqual([...declared.keys()].sort());
  });

  it("name every trigger of the database, each with its function, and no other", async () => {
    const live = await rows<{ table: string; trigger: string; fn: string }>(sql`
      select r.relname as "table", g.tgname as "trigger", f.proname as fn
      from pg_trigger g join pg_class r on r.oid = g.tgrelid join pg_proc f on f.oid = g.tgfoid
      join pg_namespace n on n.oid = r.relnamespace
      where not g.tgisinternal and n.nspname = current_schema()`);
    const named = [...declared].flatMap(([table, streams]) =>
      "none" in streams
        ? []
        : Object.entries(streams.triggers).map(([trigger, fn]) => `${table}.${trigger} → ${fn}`),
    );
    expect(live.map((row) => `${row.table}.${row.trigger} → ${row.fn}`).sort()).toEqual(named.sort());
  });

  it("move the streams they declare: the content revision's counters, the reader's session or records", async () => {
    const source = async (name: string) =>
      (await rows<{ src: string }>(sql`select prosrc as src from pg_proc where proname = ${name}`))[0]?.src ??
      "";
    // Which tables' reader events touch the kept session, and the update of one column that does not: what
    // each function writes to `touches_session` (note_session_event writes none: the default, true).
    const readerEvent = await source("note_reader_event");
    const touching = [
      ...(readerEvent.match(/TG_TABLE_NAME IN \(([^)]*)\)/)?.[1] ?? "").matchAll(/'(\w+)'/g),
    ].map((match) => match[1]);
    const exception = readerEvent.match(
      /TG_TABLE_NAME = '(\w+)' AND TG_OP = 'UPDATE'\s+AND to_jsonb\(OLD\) - '(\w+)'/,
    );
    const accountException = (await source("note_account_session_event")).match(
      /to_jsonb\(OLD\) - '(\w+)'/,
    )?.[1];
    expect(await source("note_session_event")).not.toContain("touches_session");
    expect(touching.length).toBeGreaterThan(0);

    for (const [table, streams] of declared) {
      if ("none" in streams) {
        expect(streams.none.length, table).toBeGreaterThan(0);
        continue;
      }
      const functions = new Set(Object.values(streams.triggers));
      const content = contentStreamFunctions.filter((fn) => functions.has(fn));
      expect(content.sort(), `${table}: content`).toEqual(
        streams.content ? [...contentFunctions[streams.content]].sort() : [],
      );
      const reader = readerFunctions.filter((fn) => functions.has(fn));
      expect(reader.length > 0, `${table}: reader events`).toBe(streams.reader !== undefined);
      if (!streams.reader) continue;
      const touches = reader.map((fn) => fn !== "note_reader_event" || touching.includes(table));
      expect(touches, `${table}: touches the session`).toEqual(
        reader.map(() => streams.reader === "session"),
      );
      const excepted = [
        ...(exception?.[1] === table && reader.includes("note_reader_event") ? [exception[2]] : []),
        ...(reader.includes("note_account_session_event") && accountException ? [accountException] : []),
      ];
      expect(excepted, `${table}: own records only`).toEqual(
        streams.ownRecordsOnly ? [streams.ownRecordsOnly] : [],
      );
    }
  });
});
