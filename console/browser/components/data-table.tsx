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
  /** An amount (or a count): right-aligned, tabular figures, never wrapped. */
  numeric?: boolean;
}

type RowProps = ComponentProps<'tr'> & { [data: `data-${string}`]: string | number | null | undefined };

/**
 * The console's tables: a labelled table with column headers. From 1024 px up every column shows (cells
 * wrap); below, each row is a card whose cells carry their column's header (data-label, app/globals.css).
 * `DataTable` draws rows from columns; `TableFrame` takes rows of its own (a row with state of its own,
 * such as a key with its revoke button: its cells take `data-label` themselves).
 */
export function DataTable<R>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
  footer,
  empty,
  narrow = false,
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
  /** A few short columns that fit a phone: stays a table there instead of becoming cards. */
  narrow?: boolean;
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
    <TableFrame label={label} headers={headers} numeric={shown.map((c) => c.numeric === true)} footer={footer} narrow={narrow}>
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
            <td
              key={c.header}
              data-testid={c.testId}
              data-label={c.headerHidden ? undefined : c.header}
              className={c.numeric ? 'num' : undefined}
            >
              {/* One box for the value: on a phone the cell is a label and this, side by side. */}
              <span className="cell">{c.cell(row)}</span>
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
  numeric,
  footer,
  narrow = false,
  children,
}: {
  label: string;
  headers: ReactNode[];
  /** Which columns hold amounts (right-aligned). */
  numeric?: boolean[];
  footer?: ReactNode;
  narrow?: boolean;
  children: ReactNode;
}) {
  return (
    <TableScroll label={`${label} table`}>
      <table className={narrow ? 'table table-narrow' : 'table'} aria-label={label}>
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
