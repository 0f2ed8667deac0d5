import type { ReportFilters } from '@shared/schemas/reports';
import { visibilitySql } from '../tickets/ticket-visibility.policy';
import { toInt, toIso, toRounded, type ReportContext, type ReportDefinition } from './report-definition';
import { periodCondition, type SqlParams } from './report-sql';

/** Ticket statuses as the reports write them (spec section 4: closed is shown as resolved). */
export const TICKET_STATUS_LABELS: Record<string, string> = {
  open: 'Aberto',
  pending: 'Pendente',
  closed: 'Resolvido',
  schedule: 'Agendado',
};

type TicketFilters = ReportFilters<'atendimentos-por-parametros'>;

/**
 * The tickets the report counts, as conditions on `tickets t` only (so the rows, the count and
 * the totals share them): the caller's tenant, created within the period (tenant's days), in the
 * chosen queues, the other filters, and what the ticket visibility policy lets the caller see.
 * - tagsIds: the ticket's contact has any of the tags (tags belong to contacts).
 * - ratings: the ticket's rating is one of them.
 * - isActiveDemand: the ticket's recorded `isActiveDemand` ('true': started by the company, an
 *   agent or an automated message; 'false': started by the customer).
 */
export function ticketConditions(
  ctx: ReportContext,
  f: Pick<TicketFilters, 'startDate' | 'endDate' | 'queuesIds' | 'usersIds'> & Partial<TicketFilters>,
  p: SqlParams,
): string[] {
  const where = [`t."tenantId" = ${p.bind(ctx.tenantId, 'int')}`, periodCondition('t."createdAt"', f, ctx.timeZone, p)];
  where.push(`t."queueId" = ANY(${p.bind(f.queuesIds, 'int[]')})`);
  if (f.usersIds?.length) where.push(`t."userId" = ANY(${p.bind(f.usersIds, 'int[]')})`);
  if (f.status?.length) where.push(`t.status = ANY(${p.bind(f.status, 'text[]')})`);
  if (f.channelsIds?.length) where.push(`t."whatsappId" = ANY(${p.bind(f.channelsIds, 'int[]')})`);
  if (f.demandsIds?.length) where.push(`t."demandId" = ANY(${p.bind(f.demandsIds, 'int[]')})`);
  if (f.tagsIds?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM contact_tags ft WHERE ft."contactId" = t."contactId" AND ft."tagId" = ANY(${p.bind(f.tagsIds, 'int[]')}))`,
    );
  }
  if (f.ratings?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM ticket_ratings fr WHERE fr."ticketId" = t.id AND fr.rating = ANY(${p.bind(f.ratings, 'int[]')}))`,
    );
  }
  if (f.isActiveDemand) where.push(`t."isActiveDemand" = ${p.bind(f.isActiveDemand === 'true', 'boolean')}`);
  const visible = visibilitySql(ctx.viewer, { showAll: true }, p.values);
  if (visible) where.push(visible);
  return where;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const ticketsByParametersReport: ReportDefinition<'atendimentos-por-parametros'> = {
  id: 'atendimentos-por-parametros',
  title: 'Atendimentos por parâmetros',
  columns: [
    { key: 'id', label: 'ID', kind: 'number' },
    { key: 'protocol', label: 'Protocolo', kind: 'text' },
    { key: 'contactName', label: 'Contato', kind: 'text' },
    { key: 'contactNumber', label: 'Número', kind: 'text' },
    { key: 'queue', label: 'Fila', kind: 'text' },
    { key: 'user', label: 'Usuário', kind: 'text' },
    { key: 'channel', label: 'Conexão', kind: 'text' },
    { key: 'status', label: 'Status', kind: 'text' },
    { key: 'createdAt', label: 'Criado em', kind: 'datetime' },
    { key: 'closedAt', label: 'Resolvido em', kind: 'datetime' },
    { key: 'rating', label: 'Avaliação', kind: 'number' },
    { key: 'demand', label: 'Motivo', kind: 'text' },
  ],

  rows(ctx, f, p) {
    // The names are scalar subqueries, not joins: PostgreSQL evaluates them after the sort and
    // the limit, for the rows of the page only, and plans the ticket filters on `tickets` alone
    // (joins let it start from contacts, which cost a scan of them when a tag was chosen).
    return {
      select: `t.id, t.protocol, t.status, t."createdAt", t."closedAt",
               (SELECT c.name FROM contacts c WHERE c.id = t."contactId") AS "contactName",
               (SELECT c.number FROM contacts c WHERE c.id = t."contactId") AS "contactNumber",
               (SELECT q.name FROM queues q WHERE q.id = t."queueId") AS queue,
               (SELECT u.name FROM users u WHERE u.id = t."userId") AS "user",
               COALESCE((SELECT ch.name FROM channels ch WHERE ch.id = t."whatsappId"), t.channel) AS channel,
               (SELECT d.name FROM demands d WHERE d.id = t."demandId") AS demand,
               (SELECT r.rating FROM ticket_ratings r WHERE r."ticketId" = t.id) AS rating`,
      from: 'FROM tickets t',
      where: ticketConditions(ctx, f, p),
      keys: [
        { expr: 't."createdAt"', type: 'timestamptz' },
        { expr: 't.id', type: 'int' },
      ],
      direction: 'DESC',
    };
  },

  /** One pass: the count, the count per status and the ratings' average. */
  summary(ctx, f, p) {
    return {
      sql: `SELECT count(*)::int AS count,
                   count(*) FILTER (WHERE t.status = 'open')::int AS open,
                   count(*) FILTER (WHERE t.status = 'pending')::int AS pending,
                   count(*) FILTER (WHERE t.status = 'closed')::int AS closed,
                   count(*) FILTER (WHERE t.status = 'schedule')::int AS schedule,
                   count(r.rating)::int AS ratings,
                   avg(r.rating)::float8 AS "ratingAverage"
              FROM tickets t LEFT JOIN ticket_ratings r ON r."ticketId" = t.id
             WHERE ${ticketConditions(ctx, f, p).join(' AND ')}`,
      read([row]) {
        const count = toInt(row.count);
        const byStatus = (['open', 'pending', 'closed', 'schedule'] as const)
          .filter((s) => s !== 'schedule' || toInt(row.schedule) > 0)
          .map((s) => `${TICKET_STATUS_LABELS[s]}: ${toInt(row[s])}`)
          .join(' · ');
        return {
          count,
          totals: {
            protocol: 'Total',
            contactName: plural(count, 'atendimento', 'atendimentos'),
            status: byStatus,
            rating: toRounded(row.ratingAverage),
          },
        };
      },
    };
  },

  present(row) {
    return {
      id: row.id,
      protocol: row.protocol ?? String(row.id),
      contactName: row.contactName,
      contactNumber: row.contactNumber ?? null,
      queue: row.queue ?? null,
      user: row.user ?? null,
      channel: row.channel ?? null,
      status: TICKET_STATUS_LABELS[String(row.status)] ?? row.status,
      createdAt: toIso(row.createdAt),
      closedAt: toIso(row.closedAt),
      rating: row.rating ?? null,
      demand: row.demand ?? null,
    };
  },
};
