import { TenantFileStore } from '../../../core/tenant-file-store';
import type { AppDeps } from '../../../deps';
import { emitMessages } from '../../messages/message-events';
import { loadTicket } from '../../messages/message-ticket';
import { returnedRows } from '../../messages/messages.query';
import type { InboundMessage } from '../../../channels/channel-adapter';
import { mediaFileName } from '../../../channels/media-types';

/** Folder of message files inside the tenant's private upload folder (shared with outbound files). */
export const INBOUND_MEDIA_FOLDER = 'messages';

/**
 * Fetches an inbound message's file from the provider and keeps it in the tenant's private
 * folder (served only to that tenant's users by the messages module). The message row exists
 * before this runs, so a failed download never drops the message: it keeps its media type and
 * gets lastError ERR_WAPP_DOWNLOAD_MEDIA, and clients are told either way (appMessage:update).
 */
export class InboundMediaStore {
  private readonly files: TenantFileStore;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'logger' | 'config'>) {
    this.files = new TenantFileStore(deps.config.dataDir);
  }

  async fetchAndStore(
    tenantId: number,
    messageRowId: number,
    media: NonNullable<InboundMessage['media']>,
    mediaType: string,
  ): Promise<void> {
    let stored: { path: string; name: string } | null = null;
    let failure: string | null = null;
    try {
      const buffer = await media.download();
      const name = mediaFileName(media.mimeType, media.fileName, mediaType);
      stored = { path: await this.files.save(tenantId, INBOUND_MEDIA_FOLDER, { buffer, originalname: name }), name };
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
      this.deps.logger.warn(
        { err, tenantId, messageId: messageRowId, code: 'ERR_WAPP_DOWNLOAD_MEDIA' },
        'inbound media download failed',
      );
    }
    try {
      await this.deps.events.transaction(async (tx, emit) => {
        const updated = returnedRows<{ ticketId: number }>(
          stored
            ? await tx.query(
                `UPDATE messages SET "mediaPath" = $3, "mediaName" = COALESCE("mediaName", $4), "lastError" = NULL,
                        "dataJson" = jsonb_set(COALESCE("dataJson", '{}'::jsonb), '{media,state}', '"stored"'), "updatedAt" = now()
                  WHERE id = $1 AND "tenantId" = $2 RETURNING "ticketId"`,
                [messageRowId, tenantId, stored.path, stored.name],
              )
            : await tx.query(
                `UPDATE messages SET "lastError" = 'ERR_WAPP_DOWNLOAD_MEDIA',
                        "dataJson" = jsonb_set(jsonb_set(COALESCE("dataJson", '{}'::jsonb), '{media,state}', '"failed"'), '{media,error}', to_jsonb($3::text)),
                        "updatedAt" = now()
                  WHERE id = $1 AND "tenantId" = $2 RETURNING "ticketId"`,
                [messageRowId, tenantId, failure ?? 'download failed'],
              ),
        );
        if (!updated[0]) return; // ticket (and its messages) deleted meanwhile
        const ticket = await loadTicket(tx, updated[0].ticketId);
        if (ticket) await emitMessages(tx, emit, ticket, 'update', [messageRowId]);
      });
    } catch (err) {
      // The row could not be updated (database down): do not leave an orphan file behind.
      if (stored) await this.files.remove(tenantId, stored.path).catch(() => undefined);
      throw err;
    }
  }
}
