import type { CountBucket, DurationStats, EvolutionBucket, PerUserRow, TicketsTimesRow } from '@shared/schemas/statistics';
import { durationOf } from './statistics.query';

/** Rows of the statistics statements as the answers of shared/schemas/statistics.ts. */

export interface TicketsTimesSqlRow extends Record<string, unknown> {
  opened: number;
  activeDemand: number;
  newContacts: number;
  open: number;
  pending: number;
  resolved: number;
  ratingCount: number;
  ratingAverage: number | null;
  messagesIn: number;
  messagesOut: number;
}

export interface CountRow {
  id: number | null;
  name: string | null;
  qtd: number;
}

export interface PerUserSqlRow extends Record<string, unknown> {
  userId: number;
  name: string | null;
  email: string | null;
  handled: number;
  resolved: number;
  sent: number;
  ratingCount: number;
  ratingAverage: number | null;
  total: number;
}

/** Label of a bucket without a queue or a channel (the ticket has none, or it was deleted). */
export const NO_QUEUE_LABEL = 'Sem fila';
export const NO_CHANNEL_LABEL = 'Sem conexão';
/** Name shown for facts of a user deleted since. */
export const REMOVED_USER_LABEL = 'Usuário removido';

const duration = (row: Record<string, unknown>, prefix: string): DurationStats => durationOf(row, prefix);

/** Seconds as the anchor's 'HH:MM:SS' (hours may pass 24). */
export function clockText(seconds: number | null): string | null {
  if (seconds === null) return null;
  const s = Math.max(0, Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function presentTicketsTimes(row: TicketsTimesSqlRow): TicketsTimesRow {
  const waiting = duration(row, 'waiting');
  const resolution = duration(row, 'resolution');
  return {
    qtd_total_atendimentos: row.opened,
    qtd_demanda_ativa: row.activeDemand,
    qtd_demanda_receptiva: row.opened - row.activeDemand,
    new_contacts: row.newContacts,
    tma: clockText(resolution.average),
    tme: clockText(waiting.average),
    open: row.open,
    pending: row.pending,
    resolved: row.resolved,
    waiting,
    firstResponse: duration(row, 'firstResponse'),
    resolution,
    ratings: {
      count: row.ratingCount,
      average: row.ratingAverage === null ? null : Number(row.ratingAverage),
      distribution: [0, 1, 2, 3, 4, 5].map((r) => Number(row[`rating${r}`] ?? 0)),
    },
    messagesIn: row.messagesIn,
    messagesOut: row.messagesOut,
  };
}

/** Buckets with their share of the total in percent (2 decimals; the anchor's `pertentual`). */
export function presentCountBuckets(rows: CountRow[], kind: 'queue' | 'channel'): CountBucket[] {
  const total = rows.reduce((sum, r) => sum + r.qtd, 0);
  return rows.map((r) => ({
    id: r.name === null ? null : r.id,
    label: r.name ?? (kind === 'queue' ? NO_QUEUE_LABEL : NO_CHANNEL_LABEL),
    qtd: r.qtd,
    pertentual: total === 0 ? 0 : Math.round((10_000 * r.qtd) / total) / 100,
  }));
}

/** Day buckets 'yyyy-MM-dd' read 'dd/MM/yyyy'; hour buckets 'yyyy-MM-ddTHH:00' read 'HH:00'. */
export function presentEvolution(rows: { bucket: string; qtd: number; name?: string | null; id?: number | null }[]): EvolutionBucket[] {
  return rows.map((r) => {
    const [day, hour] = r.bucket.split('T');
    const [y, m, d] = day.split('-');
    const bucket: EvolutionBucket = { dt_referencia: r.bucket, label: hour ?? `${d}/${m}/${y}`, qtd: r.qtd };
    if ('name' in r) bucket.channel = r.name ?? NO_CHANNEL_LABEL;
    return bucket;
  });
}

export function presentPerUser(row: PerUserSqlRow): PerUserRow {
  return {
    userId: row.userId,
    name: row.name ?? REMOVED_USER_LABEL,
    email: row.email,
    ticketsHandled: row.handled,
    ticketsResolved: row.resolved,
    messagesSent: row.sent,
    firstResponse: duration(row, 'firstResponse'),
    resolution: duration(row, 'resolution'),
    ratings: { count: row.ratingCount, average: row.ratingAverage === null ? null : Number(row.ratingAverage) },
  };
}
