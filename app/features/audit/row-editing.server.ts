import { eq } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Database, db } from "#db/client.server";
import { violatedUniqueConstraint } from "~/lib/db-errors";
import { digestOf } from "./digest.server";
import { type Actor, recordAudit } from "./log.server";

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type AdminActor = Actor & { via: "admin" };

/**
 * One kind of row the admin edits from a form that carries a digest of what it opened (ADR 38): how the audit
 * log names it (`<subject>.create|update|delete`) and what it keeps of it, the unique index of its key, and
 * what the digest is made of.
 */
export type RowKind<Row, Id> = {
  subject: string;
  /** What the list says was deleted (a title, a key). */
  nameOf: (row: Row) => string;
  unique: string;
  idOf: (row: Row) => Id;
  logged: (row: Row) => unknown;
  digested: (row: Row) => unknown;
};

/** Why a row must stay: the message (a translation key) and the counts it names. */
export type RowRefusal = { message: string; counts: Record<string, number> };

export type RowDeleteOutcome =
  | { ok: true; name: string }
  | { ok: false; reason: "notFound" }
  | ({ ok: false; reason: "inUse" } & RowRefusal);

export type RowSaveOutcome<Id> =
  | { ok: true; id: Id }
  | { ok: false; reason: "notFound" | "conflict" | "taken" };

/** The digest of a row as its form opens it. */
export const rowDigest = <Row, Id>(kind: RowKind<Row, Id>, row: Row) => digestOf(kind.digested(row));

/** A write whose key must be free: a violation of the kind's unique index (races included) is "taken". */
async function unlessTaken<Id>(
  kind: RowKind<never, Id>,
  write: () => Promise<RowSaveOutcome<Id>>,
): Promise<RowSaveOutcome<Id>> {
  try {
    return await write();
  } catch (error) {
    if (violatedUniqueConstraint(error) === kind.unique) return { ok: false, reason: "taken" };
    throw error;
  }
}

/** Creates a row (`insert` returns it) and its audit entry in one transaction. */
export function createRow<Row, Id>(
  kind: RowKind<Row, Id>,
  actor: AdminActor,
  insert: (tx: Transaction) => Promise<Row[]>,
): Promise<RowSaveOutcome<Id>> {
  return unlessTaken(kind, () =>
    db().transaction(async (tx) => {
      const [created] = await insert(tx);
      if (!created) throw new Error(`no ${kind.subject} created`);
      const id = kind.idOf(created);
      await recordAudit(tx, actor, {
        action: `${kind.subject}.create`,
        subjectType: kind.subject,
        subjectId: String(id),
        after: kind.logged(created),
      });
      return { ok: true, id } as const;
    }),
  );
}

/**
 * Saves a row from the version with digest `base`: `lock` reads it `FOR UPDATE`, and a row changed since the
 * form opened is a conflict, never overwritten; else `update` writes it (returning it) with its audit entry.
 */
export function saveRow<Row, Id>(
  kind: RowKind<Row, Id>,
  actor: AdminActor,
  base: string | undefined,
  lock: (tx: Transaction) => Promise<Row[]>,
  update: (tx: Transaction) => Promise<Row[]>,
): Promise<RowSaveOutcome<Id>> {
  return unlessTaken(kind, () =>
    db().transaction(async (tx) => {
      const [current] = await lock(tx);
      if (!current) return { ok: false, reason: "notFound" } as const;
      if (rowDigest(kind, current) !== base) return { ok: false, reason: "conflict" } as const;
      const [saved] = await update(tx);
      if (!saved) throw new Error(`${kind.subject} vanished under its lock`);
      const id = kind.idOf(saved);
      await recordAudit(tx, actor, {
        action: `${kind.subject}.update`,
        subjectType: kind.subject,
        subjectId: String(id),
        before: kind.logged(current),
        after: kind.logged(saved),
      });
      return { ok: true, id } as const;
    }),
  );
}

/**
 * Deletes a row with its audit entry: `lock` reads it `FOR UPDATE` (so nothing can take a reference to it
 * meanwhile), `refusal` says why it must stay (or nothing), and `remove` deletes it.
 */
export function deleteRow<Row, Id>(
  kind: RowKind<Row, Id>,
  actor: AdminActor,
  lock: (tx: Transaction) => Promise<Row[]>,
  refusal: (tx: Transaction, row: Row) => Promise<RowRefusal | undefined>,
  remove: (tx: Transaction) => Promise<unknown>,
): Promise<RowDeleteOutcome> {
  return db().transaction(async (tx) => {
    const [current] = await lock(tx);
    if (!current) return { ok: false, reason: "notFound" } as const;
    const refused = await refusal(tx, current);
    if (refused) return { ok: false, reason: "inUse", ...refused } as const;
    await remove(tx);
    await recordAudit(tx, actor, {
      action: `${kind.subject}.delete`,
      subjectType: kind.subject,
      subjectId: String(kind.idOf(current)),
      before: kind.logged(current),
    });
    return { ok: true, name: kind.nameOf(current) } as const;
  });
}

/**
 * The editing of one table's rows by their `id` column (a number or a key): opening one with its digest, and
 * creating, saving (from a digest) and deleting it, each audited in its transaction. `written` gives the
 * columns a form sets (its key is never among them: a key is set once); `created` those of a new row with
 * its key, or undefined when the form has none; `refusal` why a row must stay (counted under its lock).
 */
export function rowEditing<T extends PgTable, Id extends string | number, Input extends { base?: string }>(
  kind: RowKind<T["$inferSelect"], Id>,
  table: T,
  idColumn: AnyPgColumn,
  {
    written,
    created,
    refusal = async () => undefined,
  }: {
    written: (input: Input) => Partial<T["$inferInsert"]>;
    created: (input: Input) => T["$inferInsert"] | undefined;
    refusal?: (tx: Transaction, id: Id) => Promise<RowRefusal | undefined>;
  },
) {
  type Row = T["$inferSelect"];
  const lock = (id: Id) => (tx: Transaction) =>
    tx
      .select()
      .from(table as PgTable)
      .where(eq(idColumn, id))
      .for("update") as Promise<Row[]>;
  return {
    /** A row as its form opens it, with its digest. */
    async forEdit(id: Id): Promise<{ row: Row; base: string } | undefined> {
      const [row] = (await db()
        .select()
        .from(table as PgTable)
        .where(eq(idColumn, id))) as Row[];
      return row && { row, base: rowDigest(kind, row) };
    },
    /** A new row; its key must be free (the unique index decides, races included). */
    create(input: Input, actor: AdminActor): Promise<RowSaveOutcome<Id>> {
      const values = created(input);
      if (!values) return Promise.resolve({ ok: false, reason: "taken" });
      return createRow(kind, actor, (tx) => tx.insert(table).values(values).returning() as Promise<Row[]>);
    },
    /** Saves a row made from the version with digest `input.base` (else a conflict). */
    save(id: Id, input: Input, actor: AdminActor): Promise<RowSaveOutcome<Id>> {
      return saveRow(
        kind,
        actor,
        input.base,
        lock(id),
        (tx) =>
          tx
            .update(table)
            .set(written(input) as never)
            .where(eq(idColumn, id))
            .returning() as Promise<Row[]>,
      );
    },
    /** Deletes a row nothing keeps (audited with what it was). */
    remove(id: Id, actor: AdminActor): Promise<RowDeleteOutcome> {
      return deleteRow(
        kind,
        actor,
        lock(id),
        (tx) => refusal(tx, id),
        (tx) => tx.delete(table).where(eq(idColumn, id)),
      );
    },
  };
}
