import type { UpcomingBirthday, UpcomingBirthdaysAnswer, UpcomingBirthdaysQuery } from '@shared/schemas/birthdays';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { greetingChannelSql } from '../messages/message-birthday.service';
import { timeZoneOfTenant } from '../settings/tenant-time-zone';
import { authorizeBirthdays } from './birthdays.policy';

interface UpcomingRow {
  contactId: number;
  name: string;
  number: string | null;
  birthday: string;
  nextBirthday: string;
  daysUntil: number;
  turning: number;
  channelId: number | null;
  channelName: string | null;
  birthdayHour: number | null;
  greeted: boolean;
  total: number;
  today: string;
}

/** A contact's birthday in year `y` (SQL): the same day and month, 29/02 on 28/02 in other years. */
const birthdayIn = (y: string) =>
  `make_date(${y}, p.m, LEAST(p.d, extract(day FROM (make_date(${y}, p.m, 1) + interval '1 month' - interval '1 day'))::int))`;

/**
 * GET /birthdays/upcoming: the tenant's contacts (not groups, not blocked: those are never
 * greeted) whose next birthday falls within `days` days from today (today included), as days
 * are lived in the tenant's time zone. PostgreSQL computes today, each next birthday, the age
 * and the greeting channel (the one the birthday job will use), and pages the list in order of
 * the next birthday, then name and id.
 */
export class BirthdaysService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'clock'>) {}

  async upcoming(auth: AuthContext, query: UpcomingBirthdaysQuery): Promise<UpcomingBirthdaysAnswer> {
    authorizeBirthdays(auth);
    const db = this.deps.dataSource;
    const timeZone = await timeZoneOfTenant(db, auth.tenantId);
    const { days, pageNumber, pageSize } = query;
    const rows = (await db.query(
      `WITH today AS (SELECT ($2::timestamptz AT TIME ZONE $3::text)::date AS d),
       upcoming AS (
         SELECT c.id, c.name, c.number, c.birthday, today.d AS today,
                CASE WHEN ${birthdayIn('p.y')} >= today.d THEN ${birthdayIn('p.y')} ELSE ${birthdayIn('p.y + 1')} END AS next
           FROM contacts c
          CROSS JOIN today
          CROSS JOIN LATERAL (SELECT extract(month FROM c.birthday)::int AS m, extract(day FROM c.birthday)::int AS d,
                                     extract(year FROM today.d)::int AS y) p
          WHERE c."tenantId" = $1 AND c.birthday IS NOT NULL AND NOT c."isGroup" AND NOT c."blockContact"
       ),
       page AS (
         SELECT u.*, count(*) OVER ()::int AS total
           FROM upcoming u
          WHERE u.next < u.today + $4::int
          ORDER BY u.next, u.name, u.id
          LIMIT $5 OFFSET $6
       ),
       -- The greeting channel and whether the year's greeting went out: for the page's rows only.
       greeting AS (SELECT c.*, ${greetingChannelSql('$1')} AS "channelId" FROM page c)
       SELECT g.id AS "contactId", g.name, g.number, g.birthday::text AS birthday, g.next::text AS "nextBirthday",
              (g.next - g.today) AS "daysUntil",
              (extract(year FROM g.next) - extract(year FROM g.birthday))::int AS turning,
              g."channelId", ch.name AS "channelName", ch."birthdayHour",
              EXISTS (SELECT 1 FROM birthday_greetings bg
                       WHERE bg."tenantId" = $1 AND bg."contactId" = g.id AND bg.year = extract(year FROM g.next)::int) AS greeted,
              g.total, g.today::text AS today
         FROM greeting g
         LEFT JOIN channels ch ON ch.id = g."channelId"
        ORDER BY g.next, g.name, g.id`,
      [auth.tenantId, this.deps.clock.now(), timeZone, days, pageSize, (pageNumber - 1) * pageSize],
    )) as UpcomingRow[];
    let count = rows[0]?.total;
    let today = rows[0]?.today;
    if (count === undefined || today === undefined) {
      // A page past the end (or no birthdays): the count and today still answer.
      const [summary] = (await db.query(`SELECT ($1::timestamptz AT TIME ZONE $2::text)::date::text AS today`, [
        this.deps.clock.now(),
        timeZone,
      ])) as { today: string }[];
      today = summary.today;
      count = pageNumber > 1 ? await this.count(auth.tenantId, timeZone, days) : 0;
    }
    const contacts: UpcomingBirthday[] = rows.map(({ total: _total, today: _today, ...row }) => ({
      ...row,
      daysUntil: Number(row.daysUntil),
    }));
    return {
      today,
      timeZone,
      days,
      contacts,
      count,
      hasMore: pageNumber * pageSize < count,
      pageNumber,
      pageSize,
    };
  }

  private async count(tenantId: number, timeZone: string, days: number): Promise<number> {
    const [row] = (await this.deps.dataSource.query(
      `WITH today AS (SELECT ($2::timestamptz AT TIME ZONE $3::text)::date AS d)
       SELECT count(*)::int AS count
         FROM contacts c
        CROSS JOIN today
        CROSS JOIN LATERAL (SELECT extract(month FROM c.birthday)::int AS m, extract(day FROM c.birthday)::int AS d,
                                   extract(year FROM today.d)::int AS y) p
        WHERE c."tenantId" = $1 AND c.birthday IS NOT NULL AND NOT c."isGroup" AND NOT c."blockContact"
          AND (CASE WHEN ${birthdayIn('p.y')} >= today.d THEN ${birthdayIn('p.y')} ELSE ${birthdayIn('p.y + 1')} END) < today.d + $4::int`,
      [tenantId, this.deps.clock.now(), timeZone, days],
    )) as { count: number }[];
    return row.count;
  }
}
