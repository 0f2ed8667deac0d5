import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n/i18n';
import { EMPTY_CELL, formatCell, formatDuration } from './cell-format';
import { DataTable, pageCountOf, useDataTable, type DataColumn, type DataTableProps } from './data-table';

/**
 * DataTable: cells formatted by column kind (pt-BR), a totals row, the pager of a server page,
 * and TanStack's paging actions ending in the page callbacks. Markup comes from React's server
 * renderer; the actions are called on the table the component builds.
 */

let i18n: I18n;
beforeAll(async () => {
  i18n = await createI18n('pt-br', [initReactI18next]);
});
const render = (element: ReactElement) => renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
const PT = { language: 'pt-br' };

const COLUMNS: DataColumn[] = [
  { key: 'name', label: 'Usuário', kind: 'text' },
  { key: 'tickets', label: 'Atendimentos', kind: 'number' },
  { key: 'firstResponse', label: 'Primeira resposta', kind: 'duration' },
  { key: 'day', label: 'Dia', kind: 'date' },
  { key: 'at', label: 'Última mensagem', kind: 'datetime' },
];
const ROWS = [
  { name: 'Ana', tickets: 1234, firstResponse: 3725, day: '2024-03-01', at: '2024-03-01T02:30:00Z' },
  { name: 'Bruno', tickets: 7, firstResponse: null, day: null, at: null },
];

const props = (overrides: Partial<DataTableProps> = {}): DataTableProps => ({
  columns: COLUMNS,
  rows: ROWS,
  count: 120,
  pageNumber: 2,
  pageSize: 50,
  hasMore: true,
  onPageChange: vi.fn(),
  onPageSizeChange: vi.fn(),
  empty: { title: 'Nenhum registro' },
  timeZone: 'America/Sao_Paulo',
  testId: 't',
  ...overrides,
});

/** Cell texts of each body row. */
const bodyRows = (html: string) =>
  [...(/<tbody>([\s\S]*)<\/tbody>/.exec(html)?.[1] ?? '').matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]),
  );
const buttonDisabled = (html: string, testId: string) =>
  new RegExp(`<button[^>]*(disabled=""[^>]*data-testid="${testId}"|data-testid="${testId}"[^>]*disabled="")`).test(html);

describe('cell formats', () => {
  it('formats each kind as the spec writes it', () => {
    expect(formatCell('number', 1234.5, PT)).toBe('1.234,5');
    expect(formatCell('number', '2.456', PT)).toBe('2,46');
    expect(formatCell('duration', 3725, PT)).toBe('01:02:05');
    expect(formatDuration(90_000)).toBe('25:00:00');
    expect(formatCell('date', '2024-03-01', { ...PT, timeZone: 'Asia/Tokyo' })).toBe('01/03/2024');
    // 02:30 UTC is still the evening before in São Paulo.
    expect(formatCell('datetime', '2024-03-01T02:30:00Z', { ...PT, timeZone: 'America/Sao_Paulo' })).toBe('29/02/2024 23:30');
    expect(formatCell('date', '2024-03-01T02:30:00Z', { ...PT, timeZone: 'America/Sao_Paulo' })).toBe('29/02/2024');
    expect(formatCell('text', 'Olá', PT)).toBe('Olá');
    for (const empty of [null, undefined, '']) expect(formatCell('number', empty, PT)).toBe(EMPTY_CELL);
    expect(formatCell('date', 'ontem', PT)).toBe('ontem');
  });
});

describe('DataTable', () => {
  it('shows the page’s rows formatted by column kind, the totals row and where the page stands', () => {
    const html = render(<DataTable {...props({ totals: { tickets: 1241, firstResponse: 3725 } })} />);
    expect([...html.matchAll(/<th[^>]*scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(COLUMNS.map((c) => c.label));
    expect(bodyRows(html)).toEqual([
      ['Ana', '1.234', '01:02:05', '01/03/2024', '29/02/2024 23:30'],
      ['Bruno', '7', EMPTY_CELL, EMPTY_CELL, EMPTY_CELL],
    ]);
    const totals = /data-testid="t-totals">([\s\S]*?)<\/tr>/.exec(html)![1];
    expect([...totals.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(['Total', '1.241', '01:02:05', '', '']);
    // Totals the server labels itself get no second label.
    const named = render(<DataTable {...props({ totals: { tickets: '2 usuários', firstResponse: 3725 } })} />);
    const namedTotals = /data-testid="t-totals">([\s\S]*?)<\/tr>/.exec(named)![1];
    expect([...namedTotals.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(['', '2 usuários', '01:02:05', '', '']);
    expect(html).toContain('data-testid="t-range">51–52 de 120<');
    expect(html).toContain('Página 2 de 3');
    expect(buttonDisabled(html, 't-previous')).toBe(false);
    expect(buttonDisabled(html, 't-next')).toBe(false);
  });

  it('renders a column through its render function, with the row', () => {
    const columns: DataColumn[] = [
      { ...COLUMNS[0], render: (row) => <a href={`#/users/${String(row.name)}`}>{String(row.name)}!</a> },
      COLUMNS[4],
    ];
    const html = render(<DataTable {...props({ columns })} />);
    expect(bodyRows(html)).toEqual([
      ['<a href="#/users/Ana">Ana!</a>', '29/02/2024 23:30'],
      ['<a href="#/users/Bruno">Bruno!</a>', EMPTY_CELL],
    ]);
  });

  it('offers no next page on the server’s last page, and no previous one on the first', () => {
    const last = render(<DataTable {...props({ pageNumber: 3, hasMore: false })} />);
    expect(buttonDisabled(last, 't-next')).toBe(true);
    expect(last).toContain('Página 3 de 3');
    const first = render(<DataTable {...props({ pageNumber: 1, count: 2, hasMore: false })} />);
    expect(buttonDisabled(first, 't-previous')).toBe(true);
    expect(buttonDisabled(first, 't-next')).toBe(true);
  });

  it('shows the loading and the empty state instead of a table', () => {
    const loading = render(<DataTable {...props({ loading: true })} />);
    expect(loading).toContain('data-testid="t-loading"');
    expect(loading).not.toContain('<table');
    const empty = render(<DataTable {...props({ rows: [], count: 0, pageNumber: 1, hasMore: false })} />);
    expect(empty).toContain('data-testid="t-empty"');
    expect(empty).toContain('Nenhum registro');
    expect(empty).not.toContain('<table');
  });

  it('pages through its callbacks: next, previous, a new page size', () => {
    let table: ReturnType<typeof useDataTable> | undefined;
    const Harness = (p: DataTableProps) => {
      table = useDataTable(p);
      return null;
    };
    const p = props();
    render(<Harness {...p} />);
    expect(table!.getPageCount()).toBe(3);
    table!.nextPage();
    expect(p.onPageChange).toHaveBeenLastCalledWith(3);
    table!.previousPage();
    expect(p.onPageChange).toHaveBeenLastCalledWith(1);
    table!.setPageSize(100);
    expect(p.onPageSizeChange).toHaveBeenCalledWith(100);
    expect(p.onPageChange).toHaveBeenCalledTimes(2);

    const lastPage = props({ pageNumber: 3, hasMore: false });
    render(<Harness {...lastPage} />);
    expect(table!.getCanNextPage()).toBe(false);
    expect(table!.getCanPreviousPage()).toBe(true);
  });

  it('trusts the server’s hasMore over the count when they disagree', () => {
    expect(pageCountOf({ count: 100, pageSize: 50, pageNumber: 2, hasMore: true })).toBe(3);
    expect(pageCountOf({ count: 500, pageSize: 50, pageNumber: 4, hasMore: false })).toBe(4);
    expect(pageCountOf({ count: 500, pageSize: 50, pageNumber: 4, hasMore: true })).toBe(10);
  });
});
