import { z } from 'zod';
import { ID_LIST_MAX, calendarDay, checkPeriod, idListQuery, splitQueryList, withoutBrackets } from './period';
import { RATING_MAX, RATING_MIN } from '../limits';

/**
 * The ratings list (issue #14, screen /avaliacoes/listar): every rating of the caller's visible
 * tickets in a period, with filters, and the averages and the distribution by the rating labels
 * of spec section 9, computed by the server. The server validates the query with this schema and
 * the screen's filter form reuses it.
 */

export const RATINGS_PAGE_SIZE_DEFAULT = 20;
export const RATINGS_PAGE_SIZE_MAX = 100;
export const RATING_VALUE_MESSAGE = `avaliação de ${RATING_MIN} a ${RATING_MAX}`;

/** Scores 0..5 as `1,2`, repeated, `x[]=` or a JSON array (numbers or their digits). */
const scoreList = z.preprocess(
  (v) => splitQueryList(v)?.map((p) => (typeof p === 'string' && /^\s*\d+\s*$/.test(p) ? Number(p) : p)),
  z
    .array(
      z
        .number({ error: RATING_VALUE_MESSAGE })
        .int({ error: RATING_VALUE_MESSAGE })
        .min(RATING_MIN, { error: RATING_VALUE_MESSAGE })
        .max(RATING_MAX, { error: RATING_VALUE_MESSAGE }),
      { error: 'deve ser uma lista de avaliações' },
    )
    .max(ID_LIST_MAX)
    .optional(),
);

/** The filters of the list, as the screen's form holds them. */
export const RatingFiltersSchema = z
  .object({
    startDate: calendarDay('Data inicial'),
    endDate: calendarDay('Data final'),
    queuesIds: idListQuery,
    usersIds: idListQuery,
    ratings: scoreList,
  })
  .superRefine(checkPeriod);
export type RatingFilters = z.output<typeof RatingFiltersSchema>;

/** GET /ratings query: the filters and the page. */
export const RatingListQuerySchema = z.preprocess(
  withoutBrackets,
  z
    .object({
      startDate: calendarDay('Data inicial'),
      endDate: calendarDay('Data final'),
      queuesIds: idListQuery,
      usersIds: idListQuery,
      ratings: scoreList,
      pageNumber: z.coerce
        .number({ error: 'deve ser um número de página' })
        .int({ error: 'deve ser um número de página' })
        .min(1, { error: 'deve ser um número de página' })
        .max(100_000, { error: 'no máximo 100000' })
        .default(1),
      pageSize: z.coerce
        .number({ error: `deve ser um tamanho de página de 1 a ${RATINGS_PAGE_SIZE_MAX}` })
        .int({ error: `deve ser um tamanho de página de 1 a ${RATINGS_PAGE_SIZE_MAX}` })
        .min(1, { error: `deve ser um tamanho de página de 1 a ${RATINGS_PAGE_SIZE_MAX}` })
        .max(RATINGS_PAGE_SIZE_MAX, { error: `deve ser um tamanho de página de 1 a ${RATINGS_PAGE_SIZE_MAX}` })
        .default(RATINGS_PAGE_SIZE_DEFAULT),
    })
    .superRefine(checkPeriod),
);
export type RatingListQuery = z.output<typeof RatingListQuerySchema>;

export interface RatingRow {
  ticketId: number;
  protocol: string | null;
  contactId: number;
  contactName: string;
  contactNumber: string | null;
  /** The agent the rating is attributed to (the ticket's agent when it was rated). */
  userId: number | null;
  userName: string | null;
  queueId: number | null;
  queueName: string | null;
  rating: number;
  /** The tenant's label of the rating (spec section 9: Ruim .. Incrível). */
  label: string;
  /** Requests sent before the answer. */
  attempts: number;
  /** ISO 8601. */
  ratedAt: string;
}

export interface RatingAverage {
  count: number;
  /** 2 decimals; null without ratings. */
  average: number | null;
}

export interface RatingSummary extends RatingAverage {
  /** One entry per score 0..5, zeros included. */
  distribution: { rating: number; label: string; count: number }[];
  /** By agent (null: no agent), most ratings first. */
  byUser: (RatingAverage & { userId: number | null; name: string })[];
  /** By queue (null: no queue), most ratings first. */
  byQueue: (RatingAverage & { queueId: number | null; name: string })[];
}

export interface RatingListAnswer {
  ratings: RatingRow[];
  count: number;
  hasMore: boolean;
  pageNumber: number;
  pageSize: number;
  /** Over every rating matching the filters, not only this page. */
  summary: RatingSummary;
}
