import type { EntityManager } from 'typeorm';
import { CAMPAIGN_ANSWER_WINDOW_DAYS } from '@shared/schemas/campaigns';
import { ACK_BY_STATUS } from '../../channels/channel-adapter';
import type { AppDeps } from '../../deps';
import type { OpeningTicket, TicketOpening } from '../messaging/inbound/inbound-hooks';

interface AnswerRow {
  ticketId: number;
  contactId: number;
  channelId: number;
  campaignId: number;
  queueId: number | null;
  body: string | null;
  mediaName: string | null;
  providerMessageId: string;
  sentAt: Date;
}

/**
 * A campaign answer (issue #16): the inbound pipeline opens a NEW ticket for a contact whose
 * campaign message was delivered on that channel within CAMPAIGN_ANSWER_WINDOW_DAYS, and not yet
 * shown in a ticket. Inside the pipeline's transaction (an opening hook):
 *  - the campaign message goes into the ticket as the agent's side of the conversation: fromMe,
 *    status `sent` (ack 1), its provider id (later delivery/read statuses of the provider find it;
 *    those that came before wait in message_status_early and are applied by the outbound sweep),
 *    `timestamp`/`createdAt` of its send, origin `campaign` in dataJson. Before the customer's
 *    reply (a lower id), announced with the batch. Never picked by the outbound delivery (only
 *    `pending` rows are), not counted as a reply in the metrics (the campaign counts it);
 *  - the ticket opens in the campaign's queue for answers when it has one; the channel rules hook
 *    then gives it the queue's usual entry (auto-distribution of the channel, the queue's
 *    greeting), even on a channel with a chatflow, and no bot starts on it (InboundEvent.routed).
 * The latest such campaign message of the (contact, channel) wins; its provider id being unique per
 * channel, it is shown once: a later ticket of the same contact opens as usual.
 */
export function registerCampaignAnswers(deps: Pick<AppDeps, 'channels'>): void {
  deps.channels.inbound.useOpeningHook({ name: 'campaign-answer', run: openCampaignAnswers });
}

export async function openCampaignAnswers(tx: EntityManager, tickets: readonly OpeningTicket[]): Promise<TicketOpening[]> {
  if (tickets.length === 0) return [];
  const tenantId = tickets[0].tenantId;
  const rows = (await tx.query(
    `SELECT DISTINCT ON (o.ticket) o.ticket AS "ticketId", o.contact AS "contactId", o.channel AS "channelId",
            ca.id AS "campaignId", q.id AS "queueId", cc.body, ca."mediaName", cc."messageId" AS "providerMessageId", cc."sentAt"
       FROM unnest($2::int[], $3::int[], $4::int[]) AS o(ticket, contact, channel)
       JOIN campaign_contacts cc ON cc."tenantId" = $1 AND cc."contactId" = o.contact AND cc.status = 'delivered'
        AND cc."messageId" IS NOT NULL AND cc."sentAt" > now() - make_interval(days => $5)
       JOIN campaigns ca ON ca.id = cc."campaignId" AND ca."tenantId" = $1 AND ca."channelId" = o.channel
       LEFT JOIN queues q ON q.id = ca."queueId" AND q."tenantId" = $1
      WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m."whatsappId" = o.channel AND m."messageId" = cc."messageId")
      ORDER BY o.ticket, cc."sentAt" DESC, cc.id DESC`,
    [
      tenantId,
      tickets.map((t) => t.ticketId),
      tickets.map((t) => t.contactId),
      tickets.map((t) => t.channelId),
      CAMPAIGN_ANSWER_WINDOW_DAYS,
    ],
  )) as AnswerRow[];
  if (rows.length === 0) return [];
  const inserted = (await tx.query(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "messageId", "whatsappId", "fromMe", "mediaType",
                           status, ack, timestamp, "createdAt", "dataJson")
     SELECT $1, x.ticket, x.contact, x.body, x.mid, x.channel, true, 'chat', 'sent', $2, floor(extract(epoch FROM x.sent))::bigint, x.sent,
            jsonb_build_object('origin', 'campaign', 'campaignId', x.campaign)
       FROM unnest($3::int[], $4::int[], $5::text[], $6::varchar[], $7::int[], $8::timestamptz[], $9::int[])
            WITH ORDINALITY AS x(ticket, contact, body, mid, channel, sent, campaign, ord)
      ORDER BY x.ord
     ON CONFLICT ("whatsappId", "messageId") WHERE "messageId" IS NOT NULL DO NOTHING
     RETURNING id, "ticketId"`,
    [
      tenantId,
      ACK_BY_STATUS.sent,
      rows.map((r) => r.ticketId),
      rows.map((r) => r.contactId),
      rows.map((r) => campaignMessageText(r)),
      rows.map((r) => r.providerMessageId),
      rows.map((r) => r.channelId),
      rows.map((r) => r.sentAt),
      rows.map((r) => r.campaignId),
    ],
  )) as { id: string | number; ticketId: number }[];
  const stored = new Map(inserted.map((r) => [r.ticketId, Number(r.id)]));
  // A campaign message another delivery stored meanwhile: that ticket opens as usual.
  return rows
    .filter((r) => stored.has(r.ticketId))
    .map((r) => ({
      ticketId: r.ticketId,
      messageIds: [stored.get(r.ticketId)!],
      ...(r.queueId !== null ? { queueId: r.queueId } : {}),
    }));
}

/** The text as sent; a media without a caption shows its file name (the file itself stays the campaign's). */
function campaignMessageText(row: Pick<AnswerRow, 'body' | 'mediaName'>): string {
  const body = row.body ?? '';
  if (body.trim() || !row.mediaName) return body;
  return `📎 ${row.mediaName}`;
}
