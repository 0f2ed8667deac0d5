import {
  normalizeTemplateVariables,
  type CampaignContactDto,
  type CampaignContactStatus,
  type CampaignCounts,
  type CampaignDto,
  type CampaignStatus,
} from '@shared/schemas/campaigns';
import type { Queryable } from '../../core/tenant-catalog';
import type { EventAudience } from '../../db/entities';

/** Supervisors and administrators receive the campaign events. */
export const CAMPAIGN_AUDIENCE: EventAudience = { scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] };

export interface CampaignRow {
  id: number;
  tenantId: number;
  name: string;
  start: Date;
  status: CampaignStatus;
  message1: string;
  message2: string | null;
  message3: string | null;
  mediaPath: string | null;
  mediaName: string | null;
  mimeType: string | null;
  delay: number;
  kind: 'campaign' | 'bulk';
  bulkKind: string | null;
  templateName: string | null;
  templateLanguage: string | null;
  /** JSON: `{header, body, buttons}` (older rows: the body's list); read through normalizeTemplateVariables. */
  templateVariables: unknown;
  delayMax: number | null;
  invalidLines: unknown[] | null;
  channelId: number | null;
  channelName: string | null;
  queueId: number | null;
  userId: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  canceledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  counts: CampaignCounts | null;
}

/**
 * A campaign with its channel's name and its counts per contact status, as SQL over `campaigns ca`
 * (one statement per page: the counts read the ("campaignId", status, id) index).
 */
export const CAMPAIGN_SELECT = `
  SELECT ca.id, ca."tenantId", ca.name, ca.start, ca.status, ca.message1, ca.message2, ca.message3, ca."mediaPath",
         ca."mediaName", ca."mimeType", ca.delay, ca."channelId", ch.name AS "channelName", ca."queueId", ca."userId",
         ca.kind, ca."bulkKind", ca."templateName", ca."templateLanguage", ca."templateVariables", ca."delayMax",
         jsonb_array_length(COALESCE(ca."invalidLines", '[]'::jsonb)) AS "invalidCount",
         ca."startedAt", ca."finishedAt", ca."canceledAt", ca."createdAt", ca."updatedAt",
         (SELECT json_build_object(
                   'contacts', count(*)::int,
                   'pending', (count(*) FILTER (WHERE cc.status = 'pending'))::int,
                   'sending', (count(*) FILTER (WHERE cc.status = 'sending'))::int,
                   'delivered', (count(*) FILTER (WHERE cc.status = 'delivered'))::int,
                   'failed', (count(*) FILTER (WHERE cc.status = 'failed'))::int)
            FROM campaign_contacts cc WHERE cc."campaignId" = ca.id) AS counts
    FROM campaigns ca
    LEFT JOIN channels ch ON ch.id = ca."channelId" AND ch."tenantId" = ca."tenantId"`;

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export const EMPTY_COUNTS: CampaignCounts = { contacts: 0, pending: 0, sending: 0, delivered: 0, failed: 0 };

export function presentCampaign(row: CampaignRow): CampaignDto {
  const counts = row.counts ?? EMPTY_COUNTS;
  return {
    id: row.id,
    name: row.name,
    start: iso(row.start)!,
    status: row.status,
    message1: row.message1,
    message2: row.message2,
    message3: row.message3,
    mediaName: row.mediaName,
    mimeType: row.mimeType,
    hasMedia: row.mediaPath !== null,
    delay: row.delay,
    templateName: row.templateName ?? null,
    templateLanguage: row.templateLanguage ?? null,
    templateVariables: normalizeTemplateVariables(row.templateVariables),
    channelId: row.channelId,
    sessionId: row.channelId,
    channelName: row.channelName,
    queueId: row.queueId,
    userId: row.userId,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    canceledAt: iso(row.canceledAt),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    counts,
    contactsCount: counts.contacts,
    pendentesEnvio: counts.pending + counts.sending,
  };
}

export interface CampaignContactRow {
  id: number;
  contactId: number;
  name: string;
  number: string | null;
  status: CampaignContactStatus;
  messageIndex: number | null;
  messageId: string | null;
  error: string | null;
  sentAt: Date | null;
  optedOut: boolean;
}

export function presentCampaignContact(row: CampaignContactRow): CampaignContactDto {
  return {
    id: row.id,
    contactId: row.contactId,
    name: row.name,
    number: row.number,
    status: row.status,
    messageIndex: row.messageIndex === null ? null : Number(row.messageIndex) + 1,
    messageId: row.messageId,
    error: row.error,
    sentAt: iso(row.sentAt),
    optedOut: row.optedOut,
  };
}

/**
 * A campaigns row of the caller's tenant and of one kind (a campaign, or a bulk send: both live
 * in `campaigns`), as presented, or with `lock` the bare row locked FOR UPDATE; null when absent.
 */
export async function loadCampaignRow(db: Queryable, tenantId: number, id: number, kind: 'campaign' | 'bulk', lock = false): Promise<CampaignRow | null> {
  const rows: CampaignRow[] = await db.query(
    lock
      ? `SELECT ca.*, NULL AS "channelName", NULL AS counts FROM campaigns ca
          WHERE ca.id = $1 AND ca."tenantId" = $2 AND ca.kind = $3 FOR UPDATE`
      : `${CAMPAIGN_SELECT} WHERE ca.id = $1 AND ca."tenantId" = $2 AND ca.kind = $3`,
    [id, tenantId, kind],
  );
  return rows[0] ?? null;
}
