import {
  calendarDayInTimeZone,
  hourInTimeZone,
  type SendBirthdayInput,
  type SendBirthdayResponse,
} from '@shared/schemas/messages';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { tenantTimeZone, timeZoneOfTenant } from '../settings/tenant-time-zone';
import { upsertActiveTicket } from '../tickets/ticket-upsert';
import { emitMessages } from './message-events';
import { insertOutbound } from './message-store';
import { emitTicketChanged, touchTicketForOutbound } from './message-ticket-events';
import { loadTicket } from './message-ticket';
import { renderForTicket } from './message-variables.values';
import { authorizeBirthdayMessages } from './messages.policy';
import type { OutboundDelivery } from './outbound-delivery';

interface BirthdayChannel {
  id: number;
  type: string;
  birthdayMessage: string;
}

interface BirthdayContact {
  id: number;
  channelId: number | null;
  greeted: boolean;
}

/**
 * The channel that greets a contact, as a SQL expression over `contacts c` (`$tenant` is the
 * placeholder of the tenant id): among the tenant's channels with a birthday message, the channel
 * of the contact's most recent ticket, else the tenant's default one, else the oldest. Each
 * channel greets its contacts at its own hour (birthdayHour); the upcoming list shows the same.
 */
export function greetingChannelSql(tenant: string): string {
  const withMessage = `ch."tenantId" = ${tenant} AND btrim(COALESCE(ch."birthdayMessage", '')) <> ''`;
  return `COALESCE(
    (SELECT t."whatsappId" FROM tickets t JOIN channels ch ON ch.id = t."whatsappId"
      WHERE t."tenantId" = ${tenant} AND t."contactId" = c.id AND ${withMessage}
      ORDER BY t."updatedAt" DESC, t.id DESC LIMIT 1),
    (SELECT ch.id FROM channels ch WHERE ${withMessage} ORDER BY ch."isDefault" DESC, ch.id LIMIT 1))`;
}

/**
 * Birthday messages (spec sections 1, 3 and 9; issue #14). Contacts whose birthday (day and
 * month) is today in the tenant's time zone get their greeting channel's message (see
 * greetingChannelSql), variables filled, in their ongoing ticket on that channel (created
 * pending when there is none). The periodic job greets each channel's contacts when the hour
 * in the tenant's zone is the channel's birthdayHour; POST /messages/sendBirthday greets today's
 * birthdays at once. Once per contact per year: the greeting's `birthday_greetings` row (primary
 * key tenant, contact, year) is written in the transaction of the message, so a second run, a
 * concurrent process or a restarted server sends nothing twice. 29 February birthdays are
 * greeted on 28 February in other years.
 */
export class MessageBirthdayService {
  constructor(
    private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'logger'>,
    private readonly delivery: OutboundDelivery,
  ) {}

  /** POST /messages/sendBirthday (supervisors and administrators), for the caller's tenant. */
  send(auth: AuthContext, input: SendBirthdayInput): Promise<SendBirthdayResponse> {
    authorizeBirthdayMessages(auth);
    return this.sendForTenant(auth.tenantId, { contactIds: input.contactIds, userId: auth.userId });
  }

  /**
   * The periodic job: channels whose birthdayHour is the current hour in their tenant's zone
   * greet their contacts. Runs several times an hour; the greeting rows make extra runs no-ops.
   */
  async runDue(): Promise<number> {
    const now = this.deps.clock.now();
    const channels = (await this.deps.dataSource.query(
      `SELECT ch.id, ch."tenantId", ch."birthdayHour",
              (SELECT s.value FROM settings s WHERE s."tenantId" = ch."tenantId" AND s.key = 'timeZone') AS "timeZone"
         FROM channels ch JOIN tenants tn ON tn.id = ch."tenantId"
        WHERE tn.status = 'active' AND ch."birthdayHour" IS NOT NULL AND btrim(COALESCE(ch."birthdayMessage", '')) <> ''
        ORDER BY ch."tenantId", ch.id`,
    )) as { id: number; tenantId: number; birthdayHour: number; timeZone: string | null }[];
    let sent = 0;
    for (const channel of channels) {
      if (hourInTimeZone(now, tenantTimeZone(channel.timeZone)) !== channel.birthdayHour) continue;
      try {
        sent += (await this.sendForTenant(channel.tenantId, { channelId: channel.id })).sent;
      } catch (err) {
        this.deps.logger.error({ err, tenantId: channel.tenantId, channelId: channel.id }, 'birthday messages failed');
      }
    }
    return sent;
  }

  async sendForTenant(
    tenantId: number,
    opts: { contactIds?: number[]; userId?: number; channelId?: number },
  ): Promise<SendBirthdayResponse> {
    const now = this.deps.clock.now();
    const db = this.deps.dataSource;
    const today = calendarDayInTimeZone(now, await timeZoneOfTenant(db, tenantId));
    const [year, month, day] = today.split('-').map(Number);
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const params: unknown[] = [tenantId, month, day, !leap && month === 2 && day === 28, year];
    let filter = '';
    if (opts.contactIds) {
      params.push(opts.contactIds);
      filter = `AND c.id = ANY($${params.length}::int[])`;
    }
    const contacts = (await db.query(
      `SELECT c.id, ${greetingChannelSql('$1')} AS "channelId",
              EXISTS (SELECT 1 FROM birthday_greetings g WHERE g."tenantId" = $1 AND g."contactId" = c.id AND g.year = $5) AS greeted
         FROM contacts c
        WHERE c."tenantId" = $1 AND NOT c."isGroup" AND NOT c."blockContact" AND c.birthday IS NOT NULL
          AND ((extract(month FROM c.birthday) = $2 AND extract(day FROM c.birthday) = $3)
               OR ($4 AND extract(month FROM c.birthday) = 2 AND extract(day FROM c.birthday) = 29))
          ${filter}
        ORDER BY c.id`,
      params,
    )) as BirthdayContact[];
    const channels = new Map(
      (
        (await db.query(
          `SELECT id, type, "birthdayMessage" FROM channels WHERE "tenantId" = $1 AND btrim(COALESCE("birthdayMessage", '')) <> ''`,
          [tenantId],
        )) as BirthdayChannel[]
      ).map((c) => [c.id, c]),
    );
    const result: SendBirthdayResponse = { sent: 0, skipped: 0, withoutChannel: 0 };
    for (const contact of contacts) {
      const channel = contact.channelId === null ? undefined : channels.get(contact.channelId);
      if (opts.channelId !== undefined && contact.channelId !== opts.channelId) continue;
      if (!channel) {
        result.withoutChannel++;
        continue;
      }
      if (contact.greeted) {
        result.skipped++;
        continue;
      }
      const clientId = `birthday:${contact.id}:${today}`;
      let written: number;
      try {
        written = await this.deps.events.transaction(async (tx, emit) => {
          // The year's greeting, claimed first: a concurrent run waits here, then finds it taken.
          const claimed = (await tx.query(
            `INSERT INTO birthday_greetings ("tenantId", "contactId", year, "channelId") VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING RETURNING year`,
            [tenantId, contact.id, year, channel.id],
          )) as unknown[];
          if (claimed.length === 0) throw new AlreadyGreeted();
          const upserted = await upsertActiveTicket(tx, {
            tenantId,
            contactId: contact.id,
            channelId: channel.id,
            channelType: channel.type,
            actorUserId: opts.userId ?? null,
          });
          const ticket = await loadTicket(tx, upserted.ticket.id);
          if (!ticket) throw new AlreadyGreeted();
          const body = await renderForTicket(tx, channel.birthdayMessage, {
            tenantId,
            ticketId: ticket.id,
            userId: opts.userId ?? null,
            now,
          });
          const row = await insertOutbound(
            tx,
            ticket,
            opts.userId ?? null,
            { body, mediaType: 'chat', clientId, isPrivate: false, status: 'pending', automated: true },
            now,
          ).catch((err: unknown) => {
            // Another run greeted this contact a moment ago: roll back (no empty ticket left behind).
            throw err instanceof AppError && err.code === 'ERR_VALIDATION' ? new AlreadyGreeted() : err;
          });
          if (!row.created) throw new AlreadyGreeted();
          await tx.query(
            `UPDATE birthday_greetings SET "messageId" = $4 WHERE "tenantId" = $1 AND "contactId" = $2 AND year = $3`,
            [tenantId, contact.id, year, row.id],
          );
          await touchTicketForOutbound(tx, ticket.id, { body, mediaType: 'chat', mediaName: null, isPrivate: false }, now);
          await emitTicketChanged(tx, emit, ticket.id, upserted.created ? 'create' : 'update');
          await emitMessages(tx, emit, ticket, 'create', [row.id]);
          return row.id;
        });
      } catch (err) {
        if (!(err instanceof AlreadyGreeted)) throw err;
        result.skipped++;
        continue;
      }
      result.sent++;
      await this.delivery.enqueue(written);
    }
    return result;
  }
}

/** Thrown inside the transaction to roll it back when the contact was greeted this year already. */
class AlreadyGreeted extends Error {}
