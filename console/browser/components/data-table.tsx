import type { ComponentProps, ReactNode } from 'react';
import { TableScroll } from './table-scroll';

/** One column: its header, and what a row shows in it. */
export interface Column<R> {
  header: string;
  cell(row: R): ReactNode;
  /** data-testid of the column's cells. */
  testId?: string;
  /** Said to screen readers only (a column of buttons). */
  headerHidden?: boolean;
  /** An amount: right-aligned with tabular figures, never wrapped. */
  numeric?: boolean;
}

type RowProps = ComponentProps<'tr'> & { [data: `data-${string}`]: string | number | null | undefined };

/**
 * The console's tables: a labelled table with column headers, framed to scroll sideways on a
 * narrow screen. `DataTable` draws rows from columns; `TableFrame` takes rows of its own (a row
 * with state of its own, such as a key with its revoke button).
 */
export function DataTable<R>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  footer,
  empty,
}: {
  label: string;
  /** A column may be left out (false) for a viewer who cannot use it. */
  columns: (Column<R> | false)[];
  rows: readonly R[];
  rowKey(row: R): string;
  /** The row's test id, data attributes, id or highlight. */
  rowProps?(row: R): RowProps;
  footer?: ReactNode;
  /** A row of its own when there are no rows. */
  empty?: ReactNode;
}) {
  const shown = columns.filter((c): c is Column<R> => c !== false);
  const headers = shown.map((c) =>
    c.headerHidden ? (
      <span key={c.header} className="visually-hidden">
        {c.header}
      </span>
    ) : (
      c.header
    ),
  );
  return (
    <TableFrame label={label} headers={headers} numeric={shown.map((c) => c.numeric === true)} footer={footer}>
      {rows.length === 0 && empty && (
        <tr>
          <td colSpan={shown.length} className="hint">
            {empty}
          </td>
        </tr>
      )}
      {rows.map((row) => (
        <tr key={rowKey(row)} {...rowProps?.(row)}>
          {shown.map((c) => (
            <td key={c.header} data-testid={c.testId} className={c.numeric ? 'num' : undefined}>
              {c.cell(row)}
            </td>
          ))}
        </tr>
      ))}
    </TableFrame>
  );
}

export function TableFrame({
  label,
  headers,
  footer,
  numeric,
  children,
}: {
  label: string;
  headers: ReactNode[];
  /** Which columns hold amounts (right-aligned). */
  numeric?: boolean[];
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <TableScroll label={`${label} table`}>
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {headers.map((h, i) => (
              <th key={i} scope="col" className={numeric?.[i] ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {footer && (
          <tfoot>
            <tr>
              <td colSpan={headers.length} className="muted">
                {footer}
              </td>
            </tr>
          </tfoot>
        )}
      </table>
    </TableScroll>
  );
}
