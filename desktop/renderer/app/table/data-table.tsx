import { Button, ButtonGroup, HTMLSelect, HTMLTable, NonIdealState, Spinner, type IconName } from '@blueprintjs/core';
import {
  rowPaginationFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type PaginationState,
  type Updater,
} from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCell, type ColumnKind } from './cell-format';
import './data-table.css';

/**
 * A server-paged table (issue #13's client pattern): the server answers one page with its
 * count and whether more follow; the table shows it, formats each column by kind, adds a totals
 * row when given, and asks for another page or page size through its callbacks. TanStack Table
 * holds the column and paging model (manual pagination: it never slices rows itself); the
 * markup is Blueprint's.
 */
export interface DataColumn {
  key: string;
  /** Header text (already translated, or the server's Portuguese label). */
  label: string;
  kind: ColumnKind;
  /** Draws the cell itself (row actions, tags) instead of formatting the value by kind. */
  render?(row: DataRow): ReactNode;
}

export type DataRow = Record<string, unknown>;

export interface DataTableProps {
  columns: readonly DataColumn[];
  rows: readonly DataRow[];
  /** Rows matching on the server, over every page. */
  count: number;
  /** 1-based, as the server's pageNumber. */
  pageNumber: number;
  pageSize: number;
  hasMore: boolean;
  /** Totals by column key, shown as the last row ('Total' in its first cell unless it holds texts of its own). */
  totals?: Record<string, unknown> | null;
  /** The first page is loading (nothing to show yet). */
  loading?: boolean;
  /** Another page is loading: the current rows stay, dimmed. */
  fetching?: boolean;
  onPageChange(pageNumber: number): void;
  onPageSizeChange?(pageSize: number): void;
  pageSizeOptions?: readonly number[];
  empty: { title: string; description?: ReactNode; icon?: IconName };
  /** IANA zone for date-time columns (the tenant's). */
  timeZone?: string;
  testId?: string;
}

const features = tableFeatures({ rowPaginationFeature });

/**
 * How many pages to offer: the count says how many; `hasMore` (the server's own answer) wins
 * when they disagree, so the last page never offers a next one and a page with more always does.
 */
export function pageCountOf({ count, pageSize, pageNumber, hasMore }: Pick<DataTableProps, 'count' | 'pageSize' | 'pageNumber' | 'hasMore'>) {
  if (!hasMore) return Math.max(1, pageNumber);
  return Math.max(Math.ceil(count / Math.max(1, pageSize)), pageNumber + 1);
}

/** The TanStack table behind a DataTable: its paging actions end in the page callbacks. */
export function useDataTable(props: DataTableProps) {
  const { i18n } = useTranslation();
  const { columns, rows, pageNumber, pageSize, onPageChange, onPageSizeChange, timeZone } = props;
  const columnDefs = useMemo<ColumnDef<typeof features, DataRow>[]>(
    () =>
      columns.map((column) => ({
        id: column.key,
        header: column.label,
        accessorFn: (row: DataRow) => row[column.key],
        cell: (info) =>
          column.render ? column.render(info.row.original) : formatCell(column.kind, info.getValue(), { language: i18n.language, timeZone }),
      })),
    [columns, i18n.language, timeZone],
  );
  const pagination: PaginationState = { pageIndex: pageNumber - 1, pageSize };
  const onPaginationChange = (updater: Updater<PaginationState>) => {
    const next = typeof updater === 'function' ? updater(pagination) : updater;
    if (next.pageSize !== pageSize) onPageSizeChange?.(next.pageSize);
    else if (next.pageIndex !== pagination.pageIndex) onPageChange(next.pageIndex + 1);
  };
  return useTable({
    features,
    columns: columnDefs,
    data: rows as DataRow[],
    manualPagination: true,
    rowCount: props.count,
    pageCount: pageCountOf(props),
    state: { pagination },
    onPaginationChange,
  });
}

const DEFAULT_PAGE_SIZES = [25, 50, 100, 200] as const;

export function DataTable(props: DataTableProps) {
  const { t, i18n } = useTranslation();
  const table = useDataTable(props);
  const { columns, rows, count, pageNumber, pageSize, totals, loading, fetching, empty, timeZone } = props;
  const testId = props.testId ?? 'data-table';
  const number = (n: number) => n.toLocaleString(i18n.language);

  if (loading) {
    return (
      <div data-testid={`${testId}-loading`}>
        <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />
      </div>
    );
  }
  if (rows.length === 0) {
    return (
      <div data-testid={`${testId}-empty`}>
        <NonIdealState
          icon={empty.icon ?? 'th-disconnect'}
          title={empty.title}
          description={empty.description}
          action={
            // A page past the end (rows removed since): offer the way back.
            pageNumber > 1 ? (
              <Button icon="double-chevron-left" text={t('dataTable.firstPage')} onClick={() => props.onPageChange(1)} />
            ) : undefined
          }
        />
      </div>
    );
  }

  const first = (pageNumber - 1) * pageSize + 1;
  const last = first + rows.length - 1;
  const pages = table.getPageCount();
  const sizes = props.pageSizeOptions ?? DEFAULT_PAGE_SIZES;
  const kinds = new Map(columns.map((column) => [column.key, column.kind]));
  // A server that writes texts in its totals row names it itself ('Total', '3 atendimentos').
  const totalsNamed = Object.values(totals ?? {}).some((value) => typeof value === 'string' && value.trim() !== '');
  const alignOf = (key: string) => (['number', 'duration'].includes(kinds.get(key) ?? 'text') ? 'data-table-num' : undefined);

  return (
    <div className="data-table" data-testid={testId}>
      <div className={fetching ? 'data-table-scroll is-fetching' : 'data-table-scroll'} aria-busy={fetching || undefined}>
        <HTMLTable striped compact className="data-table-grid">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} className={alignOf(header.column.id)} scope="col">
                    <table.FlexRender header={header} />
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-testid={`${testId}-row`}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className={alignOf(cell.column.id)}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {totals ? (
            <tfoot>
              <tr data-testid={`${testId}-totals`}>
                {columns.map((column, index) => {
                  const value = totals[column.key];
                  const text =
                    value === undefined || value === null
                      ? index === 0 && !totalsNamed
                        ? t('dataTable.total')
                        : ''
                      : formatCell(column.kind, value, { language: i18n.language, timeZone });
                  return (
                    <th key={column.key} className={alignOf(column.key)} scope={index === 0 ? 'row' : undefined}>
                      {text}
                    </th>
                  );
                })}
              </tr>
            </tfoot>
          ) : null}
        </HTMLTable>
      </div>
      <div className="data-table-pager" data-testid={`${testId}-pager`}>
        <span className="data-table-range" data-testid={`${testId}-range`}>
          {t('dataTable.range', { first: number(first), last: number(last), total: number(count) })}
        </span>
        <div className="data-table-pager-actions">
          {props.onPageSizeChange ? (
            <label className="data-table-size">
              {t('dataTable.pageSize')}
              <HTMLSelect
                value={pageSize}
                onChange={(event) => table.setPageSize(Number(event.currentTarget.value))}
                data-testid={`${testId}-page-size`}
              >
                {sizes.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </HTMLSelect>
            </label>
          ) : null}
          <ButtonGroup>
            <Button
              icon="chevron-left"
              text={t('dataTable.previous')}
              disabled={!table.getCanPreviousPage() || fetching}
              onClick={() => table.previousPage()}
              data-testid={`${testId}-previous`}
            />
            <Button disabled text={t('dataTable.pageOf', { page: number(pageNumber), pages: number(pages) })} data-testid={`${testId}-page`} />
            <Button
              endIcon="chevron-right"
              text={t('dataTable.next')}
              disabled={!table.getCanNextPage() || fetching}
              onClick={() => table.nextPage()}
              data-testid={`${testId}-next`}
            />
          </ButtonGroup>
        </div>
      </div>
    </div>
  );
}
