import { getTableColumns, getTableName, is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";

/**
 * The tables about a reader: `users`, every table with a foreign key to one of those (so a payment's events
 * count, as its payment does), and every table with a `user_id` column whether or not it declares the key.
 */
export function tablesAboutReaders(schema: Record<string, unknown>): PgTable[] {
  const tables = Object.values(schema).filter((value): value is PgTable => is(value, PgTable));
  const personal = new Set(tables.filter((table) => getTableName(table) === "users"));
  for (let grew = true; grew; ) {
    grew = false;
    for (const table of tables) {
      if (personal.has(table)) continue;
      const { foreignKeys, columns } = getTableConfig(table);
      const referencesPersonal = foreignKeys.some((key) => personal.has(key.reference().foreignTable));
      const namesAUser = columns.some((column) => /(^|_)user_id$/.test(column.name));
      if (referencesPersonal || namesAUser) {
        personal.add(table);
        grew = true;
      }
    }
  }
  return [...personal];
}

/**
 * What the export misses: tables about readers neither exported nor excluded with a reason, and withheld
 * columns that do not exist or say no reason (a stale list hides nothing, but misleads its reader).
 */
export function exportGaps(
  schema: Record<string, unknown>,
  exported: readonly { table: PgTable; withheld: Record<string, string> }[],
  excluded: readonly { table: PgTable; reason: string }[],
): string[] {
  const gaps: string[] = [];
  const covered = new Set([...exported.map((entry) => entry.table), ...excluded.map((entry) => entry.table)]);
  for (const table of tablesAboutReaders(schema)) {
    if (!covered.has(table)) gaps.push(`table ${getTableName(table)} is neither exported nor excluded`);
  }
  for (const { table, withheld } of exported) {
    const columns = getTableColumns(table);
    for (const [column, reason] of Object.entries(withheld)) {
      if (!(column in columns)) gaps.push(`${getTableName(table)}.${column} is withheld but no such column`);
      if (!reason.trim()) gaps.push(`${getTableName(table)}.${column} is withheld without a reason`);
    }
  }
  for (const { table, reason } of excluded) {
    if (!reason.trim()) gaps.push(`${getTableName(table)} is excluded without a reason`);
  }
  return gaps;
}
