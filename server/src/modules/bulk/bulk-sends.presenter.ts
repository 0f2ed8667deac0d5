import { SOCKET_EVENTS } from '@shared/events';
import type { BulkInvalidLine, BulkKind, BulkSendDto, BulkSendResultDto } from '@shared/schemas/bulk-sends';
import { normalizeTemplateVariables, type CampaignContactStatus } from '@shared/schemas/campaigns';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import type { EventAudience } from '../../db/entities';
import type { Emit } from '../../realtime/domain-events';
import { EMPTY_COUNTS, loadCampaignRow, type CampaignRow } from '../campaigns/campaigns.presenter';

/** Bulk sends are for every profile of the tenant (the spec's main menu): their progress too. */
export const BULK_SEND_AUDIENCE: EventAudience = { scope: 'tenant' };

export type BulkSendRow = CampaignRow & { invalidCount?: number };

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function presentBulkSend(row: BulkSendRow): BulkSendDto {
  return {
    id: row.id,
    kind: (row.bulkKind ?? 'texto') as BulkKind,
    status: row.status,
    channelId: row.channelId,
    channelName: row.channelName,
    message: row.message1 ? row.message1 : null,
    mediaName: row.mediaName,
    mimeType: row.mimeType,
    hasMedia: row.mediaPath !== null,
    templateName: row.templateName ?? null,
    templateLanguage: row.templateLanguage ?? null,
    templateVariables: normalizeTemplateVariables(row.templateVariables),
    minDelay: row.delay,
    maxDelay: row.delayMax ?? row.delay,
    createdAt: iso(row.createdAt)!,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    canceledAt: iso(row.canceledAt),
    counts: row.counts ?? EMPTY_COUNTS,
    invalidCount: Number(row.invalidCount ?? 0),
  };
}

/** The bulk send of the caller's tenant, or ERR_NO_BULK_SEND_FOUND (another tenant's, or a campaign, is not found either). */
export async function loadBulkSend(db: Queryable, tenantId: number, id: number, lock = false): Promise<BulkSendRow> {
  const row = await loadCampaignRow(db, tenantId, id, 'bulk', lock);
  if (!row) throw new AppError('ERR_NO_BULK_SEND_FOUND');
  return row;
}

/** Records `bulkSend:update` with the send as it is now (inside the writer's transaction). */
export async function emitBulkSend(
  tx: Queryable,
  emit: Emit,
  tenantId: number,
  id: number,
  action: 'create' | 'update' | 'progress',
): Promise<BulkSendDto> {
  const bulkSend = presentBulkSend(await loadBulkSend(tx, tenantId, id));
  await emit(tenantId, SOCKET_EVENTS.bulkSendUpdate, { action, bulkSend }, BULK_SEND_AUDIENCE);
  return bulkSend;
}

export interface BulkResultRow {
  id: number;
  contactId: number;
  name: string;
  number: string | null;
  variables: string[] | null;
  status: CampaignContactStatus;
  messageId: string | null;
  error: string | null;
  sentAt: Date | null;
}

export function presentBulkResult(row: BulkResultRow): BulkSendResultDto {
  return {
    id: row.id,
    contactId: row.contactId,
    name: row.name,
    number: row.number,
    variables: row.variables ?? [],
    status: row.status,
    messageId: row.messageId,
    error: row.error,
    sentAt: iso(row.sentAt),
  };
}

export const invalidLinesOf = (row: { invalidLines: unknown[] | null }): BulkInvalidLine[] =>
  Array.isArray(row.invalidLines) ? (row.invalidLines as BulkInvalidLine[]) : [];
