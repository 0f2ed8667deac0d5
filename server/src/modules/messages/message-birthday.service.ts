import {
  calendarDayInTimeZone,
  hourInTimeZone,
  type SendBirthdayInput,
  type SendBirthdayResponse,
} from '@shared/schemas/messages';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
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

/**
 * Birthday messages (spec sections 1 and 3: a channel's birthday message and hour). Contacts
 * whose birthday (day and month, in the business time zone) is today get the channel's text,
 * variables filled, in their ongoing ticket on that channel (created pending when there is
 * none). A tenant with several channels that have a birthday message uses its default one,
 * else the oldest. At most one per contact per day: the client id `birthday:<contact>:<day>`
 * is unique per tenant, so a second run (by hand or by the hourly job) sends nothing twice.
 * 29 February birthdays are greeted on 28 February in other years.
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
   * The periodic job: tenants whose birthday channel's hour (birthdayHour) is the current hour.
   * Runs several times an hour; the client id makes the extra runs no-ops.
   */
  async runDue(): Promise<number> {
    const now = this.deps.clock.now();
    const hour = hourInTimeZone(now);
    const tenants = (await this.deps.dataSource.query(
      `SELECT DISTINCT "tenantId" FROM channels
        WHERE "birthdayHour" = $1 AND "birthdayMessage" IS NOT NULL AND btrim("birthdayMessage") <> ''`,
      [hour],
    )) as { tenantId: number }[];
    let sent = 0;
    for (const { tenantId } of tenants) {
      try {
        sent += (await this.sendForTenant(tenantId, { hour })).sent;
      } catch (err) {
        this.deps.logger.error({ err, tenantId }, 'birthday messages failed');
      }
    }
    return sent;
  }

  async sendForTenant(
    tenantId: number,
    opts: { contactIds?: number[]; userId?: number; hour?: number },
  ): Promise<SendBirthdayResponse> {
    const now = this.deps.clock.now();
    const today = calendarDayInTimeZone(now);
    const [year, month, day] = today.split('-').map(Number);
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const params: unknown[] = [tenantId, month, day, !leap && month === 2 && day === 28];
    let filter = '';
    if (opts.contactIds) {
      params.push(opts.contactIds);
      filter = `AND id = ANY($${params.length}::int[])`;
    }
    const contacts = (await this.deps.dataSource.query(
      `SELECT id, "isGroup" FROM contacts
        WHERE "tenantId" = $1 AND NOT "isGroup" AND NOT "blockContact" AND birthday IS NOT NULL
          AND ((extract(month FROM birthday) = $2 AND extract(day FROM birthday) = $3)
               OR ($4 AND extract(month FROM birthday) = 2 AND extract(day FROM birthday) = 29))
          ${filter}
        ORDER BY id`,
      params,
    )) as { id: number; isGroup: boolean }[];
    const channelParams: unknown[] = [tenantId];
    let hourFilter = '';
    if (opts.hour !== undefined) {
      channelParams.push(opts.hour);
      hourFilter = `AND "birthdayHour" = $2`;
    }
    const [channel] = (await this.deps.dataSource.query(
      `SELECT id, type, "birthdayMessage" FROM channels
        WHERE "tenantId" = $1 AND "birthdayMessage" IS NOT NULL AND btrim("birthdayMessage") <> '' ${hourFilter}
        ORDER BY "isDefault" DESC, id LIMIT 1`,
      channelParams,
    )) as BirthdayChannel[];
    const result: SendBirthdayResponse = { sent: 0, skipped: 0, withoutChannel: 0 };
    if (!channel) {
      result.withoutChannel = contacts.length;
      return result;
    }
    for (const contact of contacts) {
      const clientId = `birthday:${contact.id}:${today}`;
      const [greeted] = (await this.deps.dataSource.query(`SELECT 1 FROM messages WHERE "tenantId" = $1 AND "clientId" = $2`, [
        tenantId,
        clientId,
      ])) as unknown[];
      if (greeted) {
        result.skipped++;
        continue;
      }
      let written: number;
      try {
        written = await this.deps.events.transaction(async (tx, emit) => {
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

/** Thrown inside the transaction to roll it back when the contact was greeted today already. */
class AlreadyGreeted extends Error {}
