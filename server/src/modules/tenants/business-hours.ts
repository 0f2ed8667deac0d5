import { TZDate } from '@date-fns/tz';
import { withDefaultWeek, type BusinessHoursDay } from '@shared/schemas/tenant-settings';
import type { Queryable } from '../../core/tenant-catalog';
import { tenantTimeZone } from '../settings/tenant-time-zone';

/**
 * Business hours (spec sections 3 and 4): is a moment inside a week of hours, read in a time
 * zone. Pure, so the absence-message hook and the chatflow engine ("route if outside business
 * hours", the businessHours condition) decide the same way; both take the week with weekOfTicket
 * (the ticket queue's own week, else the tenant's) and the zone with tenantTimeZone.
 *
 * Day types: O open all day, C closed all day, H open from hr1 to hr2 and from hr3 to hr4
 * (start inclusive, end exclusive: 18:00 is closed when hr4 is 18:00). The weekday and the time
 * are those of the wall clock in `timeZone`, so 01:00 UTC on a Tuesday is Monday 22:00 in São
 * Paulo and follows Monday's hours. A day missing from `week` takes the default week's.
 */
export function isWithinBusinessHours(
  week: readonly BusinessHoursDay[] | null | undefined,
  date: Date,
  timeZone: string,
): boolean {
  const zone = tenantTimeZone(timeZone);
  const wall = new TZDate(date.getTime(), zone);
  const day = withDefaultWeek(week).find((d) => d.day === wall.getDay());
  if (!day) return false;
  if (day.type === 'O') return true;
  if (day.type === 'C') return false;
  const time = `${String(wall.getHours()).padStart(2, '0')}:${String(wall.getMinutes()).padStart(2, '0')}`;
  return (day.hr1 <= time && time < day.hr2) || (day.hr3 <= time && time < day.hr4);
}

export interface BusinessHoursOfTicket {
  week: BusinessHoursDay[];
  /** The tenant's absence text (empty: none). */
  absenceMessage: string;
  timeZone: string;
  /** Where the week came from. */
  source: 'queue' | 'tenant';
}

/**
 * The week that applies to a ticket, from the stored columns: its queue's own week
 * (queues."businessHours", a non-empty list) when the ticket is in a queue that has one, else
 * the tenant's (tenants."businessHours"; never saved: the default week). The one rule of the
 * absence-message hook and the chatflow engine, which read the columns in their own queries.
 */
export function weekOfTicket(
  queueWeek: unknown,
  tenantWeek: unknown,
): { week: BusinessHoursDay[]; source: 'queue' | 'tenant' } {
  const own = Array.isArray(queueWeek) && queueWeek.length > 0 ? (queueWeek as BusinessHoursDay[]) : null;
  if (own) return { week: withDefaultWeek(own), source: 'queue' };
  return { week: withDefaultWeek(Array.isArray(tenantWeek) ? (tenantWeek as BusinessHoursDay[]) : null), source: 'tenant' };
}

/** The hours that apply to a ticket: its queue's own week when the queue has one, else the tenant's. */
export async function businessHoursOf(db: Queryable, tenantId: number, queueId: number | null): Promise<BusinessHoursOfTicket> {
  const [row] = (await db.query(
    `SELECT t."businessHours" AS "tenantWeek", t."messageBusinessHours" AS message, q."businessHours" AS "queueWeek",
            (SELECT s.value FROM settings s WHERE s."tenantId" = t.id AND s.key = 'timeZone') AS "timeZone"
       FROM tenants t
       LEFT JOIN queues q ON q.id = $2 AND q."tenantId" = t.id
      WHERE t.id = $1`,
    [tenantId, queueId],
  )) as {
    tenantWeek: unknown;
    message: string | null;
    queueWeek: unknown;
    timeZone: string | null;
  }[];
  return {
    ...weekOfTicket(row?.queueWeek, row?.tenantWeek),
    absenceMessage: row?.message?.trim() ?? '',
    timeZone: tenantTimeZone(row?.timeZone),
  };
}
