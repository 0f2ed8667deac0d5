import { AREA_CODES_BY_UF, BRAZIL_NUMBER_SQL_PATTERN, UF_BY_AREA_CODE } from '@shared/brazil-area-codes';
import type { BrazilUf, ReportColumn, ReportFilters, ReportId } from '@shared/schemas/reports';
import { contactFilterConditions } from '../contacts/contact-list.query';
import { toInt, toIso, type ReportContext, type ReportDefinition, type ReportSummarySql } from './report-definition';
import { periodCondition, type ReportRowsSql, type SqlParams } from './report-sql';

/**
 * The contact reports: lista-contatos and the four "by" reports (tags, state, kanban, wallet).
 * Every one lists the tenant's contacts (groups excluded: they are not people) created within the
 * period (tenant's days), in name order (the index contacts_tenant_name_idx), with their tags,
 * wallet owners, kanban column and state. The "by" reports require one selection (the shared
 * schema says so) and answer, as totals, how many of the contacts fall in each selected group.
 */

/** The state of `c.number` (55 + area code + 8 or 9 digits), from the fixed table; null otherwise. */
const UF_SQL = `CASE WHEN c.number ~ '${BRAZIL_NUMBER_SQL_PATTERN}' THEN (CASE substring(c.number, 3, 2) ${[...UF_BY_AREA_CODE]
  .map(([code, uf]) => `WHEN '${code}' THEN '${uf}'`)
  .join(' ')} END) END`;

const CONTACT_SELECT = `c.id, c.name, c.number, c.email, c."createdAt", k.name AS kanban, ${UF_SQL} AS state,
  (SELECT string_agg(tg.name, ', ' ORDER BY lower(tg.name), tg.id)
     FROM contact_tags ct JOIN tags tg ON tg.id = ct."tagId" WHERE ct."contactId" = c.id) AS tags,
  (SELECT string_agg(wu.name, ', ' ORDER BY lower(wu.name), wu.id)
     FROM contact_wallets cw JOIN users wu ON wu.id = cw."userId" WHERE cw."contactId" = c.id) AS wallets`;

interface ContactSelection {
  tagsIds?: number[];
  walletsIds?: number[];
  kanbanIds?: number[];
  states?: BrazilUf[];
  queuesIds?: number[];
  search?: string;
}

/**
 * Conditions on `contacts c`: tenant, period, not a group, and the selections. tags / wallets /
 * search are the contacts list's own conditions (any of the tags, any of the owners, the name,
 * e-mail or number contains the text); kanbanIds: in one of the columns; states: a Brazilian
 * number whose area code is of one of the states; queuesIds: the contact has a ticket in one of
 * the queues.
 */
export function contactConditions(ctx: ReportContext, f: { startDate: string; endDate: string } & ContactSelection, p: SqlParams): string[] {
  const { tenant, rest } = contactFilterConditions(ctx.tenantId, { searchParam: f.search, tags: f.tagsIds, wallets: f.walletsIds }, p.values);
  const where = [tenant, 'NOT c."isGroup"', periodCondition('c."createdAt"', f, ctx.timeZone, p), ...rest];
  if (f.kanbanIds?.length) where.push(`c."kanbanId" = ANY(${p.bind(f.kanbanIds, 'int[]')})`);
  if (f.states?.length) {
    const codes = f.states.flatMap((uf) => AREA_CODES_BY_UF[uf]);
    where.push(`c.number ~ '${BRAZIL_NUMBER_SQL_PATTERN}' AND substring(c.number, 3, 2) = ANY(${p.bind(codes, 'text[]')})`);
  }
  if (f.queuesIds?.length) {
    where.push(`EXISTS (SELECT 1 FROM tickets qt WHERE qt."contactId" = c.id AND qt."queueId" = ANY(${p.bind(f.queuesIds, 'int[]')}))`);
  }
  return where;
}

function contactRows(ctx: ReportContext, f: { startDate: string; endDate: string } & ContactSelection, p: SqlParams): ReportRowsSql {
  return {
    select: CONTACT_SELECT,
    from: `FROM contacts c LEFT JOIN kanbans k ON k.id = c."kanbanId"`,
    where: contactConditions(ctx, f, p),
    keys: [
      { expr: 'lower(c.name)', type: 'text' },
      { expr: 'c.id', type: 'int' },
    ],
    direction: 'ASC',
  };
}

const presentContact = (row: Record<string, unknown>) => ({
  id: row.id,
  name: row.name,
  number: row.number ?? null,
  email: row.email ?? null,
  state: row.state ?? null,
  tags: row.tags ?? null,
  wallets: row.wallets ?? null,
  kanban: row.kanban ?? null,
  createdAt: toIso(row.createdAt),
});

const COLUMN: Record<string, ReportColumn> = {
  name: { key: 'name', label: 'Nome', kind: 'text' },
  number: { key: 'number', label: 'Número', kind: 'text' },
  email: { key: 'email', label: 'E-mail', kind: 'text' },
  state: { key: 'state', label: 'Estado', kind: 'text' },
  tags: { key: 'tags', label: 'Etiquetas', kind: 'text' },
  wallets: { key: 'wallets', label: 'Carteira', kind: 'text' },
  kanban: { key: 'kanban', label: 'Kanban', kind: 'text' },
  createdAt: { key: 'createdAt', label: 'Criado em', kind: 'datetime' },
};
const columns = (...keys: (keyof typeof COLUMN)[]) => keys.map((k) => COLUMN[k]);

/**
 * Count and totals of a "by" report in one pass: GROUPING SETS gives one row per group (the
 * distinct contacts in it) and the grand total of distinct contacts (a contact with two of the
 * chosen tags counts once in the total and in both tags). Totals: the group column holds
 * 'Group: n · Group: n', most contacts first.
 */
function groupSummary(
  groupColumn: string,
  join: string,
  group: { label: string; key: string; by: string },
  where: string[],
): ReportSummarySql {
  return {
    sql: `SELECT ${group.label} AS label, count(DISTINCT c.id)::int AS count, GROUPING(${group.key})::int AS "isTotal"
            FROM contacts c ${join}
           WHERE ${where.join(' AND ')}
           GROUP BY GROUPING SETS ((${group.by}), ())
           ORDER BY 3 DESC, 2 DESC, 1`,
    read(rows) {
      const total = rows.find((r) => toInt(r.isTotal) === 1);
      const groups = rows.filter((r) => toInt(r.isTotal) === 0 && toInt(r.count) > 0);
      return {
        count: toInt(total?.count),
        totals: { name: 'Total', [groupColumn]: groups.map((g) => `${g.label}: ${toInt(g.count)}`).join(' · ') },
      };
    },
  };
}

function contactReport<Id extends ReportId>(
  def: Omit<ReportDefinition<Id>, 'rows' | 'present'> & { rows?: ReportDefinition<Id>['rows'] },
): ReportDefinition<Id> {
  return {
    rows: (ctx, f, p) => contactRows(ctx, f as ContactSelection & { startDate: string; endDate: string }, p),
    present: presentContact,
    ...def,
  };
}

export const contactListReport = contactReport<'lista-contatos'>({
  id: 'lista-contatos',
  title: 'Lista de contatos',
  columns: columns('name', 'number', 'email', 'state', 'tags', 'wallets', 'kanban', 'createdAt'),
});

/** /contacts-report (the anchor's path) also takes the anchor's state filter (`ddds`, as UFs). */
export type ContactListFilters = ReportFilters<'lista-contatos'> & { states?: BrazilUf[] };

export const contactsByTagReport = contactReport<'contatos-por-etiquetas'>({
  id: 'contatos-por-etiquetas',
  title: 'Contatos por etiquetas',
  columns: columns('name', 'number', 'email', 'tags', 'createdAt'),
  summary: (ctx, f, p) =>
    groupSummary(
      'tags',
      `JOIN contact_tags gt ON gt."contactId" = c.id AND gt."tagId" = ANY(${p.bind(f.tagsIds, 'int[]')}) JOIN tags g ON g.id = gt."tagId"`,
      { label: 'g.name', key: 'g.id', by: 'g.id, g.name' },
      contactConditions(ctx, f, p),
    ),
});

export const contactsByStateReport = contactReport<'contatos-por-estado'>({
  id: 'contatos-por-estado',
  title: 'Contatos por estado',
  columns: columns('state', 'name', 'number', 'email', 'createdAt'),
  summary: (ctx, f, p) => groupSummary('state', '', { label: UF_SQL, key: UF_SQL, by: UF_SQL }, contactConditions(ctx, f, p)),
});

export const contactsByKanbanReport = contactReport<'contatos-por-kanban'>({
  id: 'contatos-por-kanban',
  title: 'Contatos por kanban',
  columns: columns('kanban', 'name', 'number', 'email', 'createdAt'),
  summary: (ctx, f, p) => groupSummary(
      'kanban',
      'JOIN kanbans g ON g.id = c."kanbanId"',
      { label: 'g.name', key: 'g.id', by: 'g.id, g.name' },
      contactConditions(ctx, f, p),
    ),
});

export const contactsByWalletReport = contactReport<'contatos-por-carteira'>({
  id: 'contatos-por-carteira',
  title: 'Contatos por carteira',
  columns: columns('wallets', 'name', 'number', 'email', 'createdAt'),
  summary: (ctx, f, p) =>
    groupSummary(
      'wallets',
      `JOIN contact_wallets gw ON gw."contactId" = c.id AND gw."userId" = ANY(${p.bind(f.walletsIds, 'int[]')}) JOIN users g ON g.id = gw."userId"`,
      { label: 'g.name', key: 'g.id', by: 'g.id, g.name' },
      contactConditions(ctx, f, p),
    ),
});
