import type { ReactNode } from "react";

/** A column's heading; `numeric` aligns it right, as its figures are. `false` leaves the column out. */
export type HistoryColumn = { label: string; numeric?: boolean } | false;

/**
 * The account's and the admin's lists of dated records (orders, payments, coins, gifts): a table that scrolls
 * sideways on a narrow screen, named by its (screen-reader) caption, with muted headings; `children` are the
 * body's rows.
 */
export function HistoryTable({
  caption,
  testId,
  columns,
  children,
}: {
  caption: string;
  testId: string;
  columns: HistoryColumn[];
  children: ReactNode;
}) {
  const shown = columns.filter((column) => column !== false);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="text-muted">
          <tr>
            {shown.map((column, index) => (
              <th
                key={column.label}
                scope="col"
                className={[
                  "py-2 font-normal",
                  index < shown.length - 1 && "pr-3",
                  column.numeric && "text-right",
                ]
                  .filter(Boolean)
                  .join(" ")}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
