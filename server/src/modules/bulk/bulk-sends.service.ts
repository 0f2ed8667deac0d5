import path from 'node:path';
import { SOCKET_EVENTS } from '@shared/events';
import {
  bulkKindHasVariables,
  bulkKindIsTemplate,
  bulkMediaTypeOf,
  bulkTemplateLineVariables,
  highestLineVariable,
  parseBulkDestinations,
  type BulkSendCreatedDto,
  type BulkSendDto,
  type BulkSendInput,
  type BulkSendResultsAnswer,
  type BulkSendResultsQuery,
} from '@shared/schemas/bulk-sends';
import { CAMPAIGN_MEDIA_MAX_BYTES, campaignComplaintWarning, type CampaignTemplateVariables } from '@shared/schemas/campaigns';
import type { ContactEventPayload } from '@shared/schemas/contacts';
import { templatePlaceholders } from '@shared/schemas/templates';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { TenantFileStore, safeDisplayName, safeMimeType } from '../../core/tenant-file-store';
import type { AppDeps } from '../../deps';
import { assertCampaignTemplate } from '../campaigns/campaign-template';
import { authorizeBulkSends } from '../campaigns/campaigns.policy';
import { CAMPAIGN_SELECT } from '../campaigns/campaigns.presenter';
import { GuardedHttpError, guardedRequest } from '../chatflow/guarded-http';
import { returnedRows } from '../messages/messages.query';
import {
  emitBulkSend,
  invalidLinesOf,
  loadBulkSend,
  presentBulkResult,
  presentBulkSend,
  type BulkResultRow,
  type BulkSendRow,
} from './bulk-sends.presenter';

export const BULK_MEDIA_FOLDER = 'bulk-sends';
/** How long the download of a bulk send's media URL may take. */
export const BULK_MEDIA_TIMEOUT_MS = 20_000;
/** The list answers the latest sends only. */
const LIST_LIMIT = 50;

const MIME_BY_EXTENSION: Record<string, string> = {
  '.ogg': 'audio/ogg',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.3gp': 'video/3gpp',
  '.pdf': 'application/pdf',
};

/**
 * Bulk sends (/massa/*): a bulk send is a campaign row of kind 'bulk', created running, whose
 * destinations are campaign_contacts rows carrying the values of their line; the campaign
 * sender sends it like any campaign of its channel (one throttle per channel, claim before send,
 * crash recovery), spaced uniformly between the min and max seconds. Destinations are numbers:
 * each is found among the tenant's contacts by its canonical number, or created with the number
 * as its name (docs/architecture.md "Bulk sends").
 */
export class BulkSendsService {
  private readonly files: TenantFileStore;

  constructor(
    private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'config' | 'logger'>,
    private readonly kick: (channelId: number) => Promise<void>,
  ) {
    this.files = new TenantFileStore(deps.config.dataDir);
  }

  async list(auth: AuthContext, kind?: string): Promise<BulkSendDto[]> {
    authorizeBulkSends(auth);
    const rows: BulkSendRow[] = await this.deps.dataSource.query(
      `${CAMPAIGN_SELECT} WHERE ca."tenantId" = $1 AND ca.kind = 'bulk' AND ($2::text IS NULL OR ca."bulkKind" = $2)
        ORDER BY ca.id DESC LIMIT ${LIST_LIMIT}`,
      [auth.tenantId, kind ?? null],
    );
    return rows.map(presentBulkSend);
  }

  async get(auth: AuthContext, id: number): Promise<BulkSendDto> {
    authorizeBulkSends(auth);
    return presentBulkSend(await loadBulkSend(this.deps.dataSource, auth.tenantId, id));
  }

  async create(auth: AuthContext, input: BulkSendInput): Promise<BulkSendCreatedDto> {
    authorizeBulkSends(auth);
    if (input.kind === 'sms') {
      // No SMS provider exists yet (docs/architecture.md "Bulk sends"): refused, never pretended.
      throw new AppError('ERR_SMS_PROVIDER_NOT_CONFIGURED');
    }
    const channelId = input.channelId!;
    const [channel] = (await this.deps.dataSource.query(`SELECT id, type FROM channels WHERE id = $1 AND "tenantId" = $2`, [
      channelId,
      auth.tenantId,
    ])) as { id: number; type: string }[];
    if (!channel) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'channelId', message: 'conexão não encontrada' }] });

    let templateVariables: CampaignTemplateVariables | null = null;
    let variablesNeeded = 0;
    if (bulkKindIsTemplate(input.kind)) {
      const bodyFromLines = input.kind === 'template-variavel';
      const stored = await assertCampaignTemplate(this.deps.dataSource, auth.tenantId, channelId, {
        templateName: input.templateName!,
        templateLanguage: input.templateLanguage ?? '',
        variables: input.templateVariables,
        bodyFromLines,
      });
      templateVariables = input.templateVariables;
      if (bodyFromLines) {
        // Each line fills the body ({{1}} is its first value ...); header and buttons are the form's.
        const body = templatePlaceholders(stored.components).body;
        templateVariables = { ...input.templateVariables, body: Array.from({ length: body }, (_, i) => `{{${i + 1}}}`) };
        variablesNeeded = bulkTemplateLineVariables(body, input.templateVariables);
      }
    } else if (input.kind === 'textovariavel') {
      variablesNeeded = highestLineVariable(input.message);
    }

    const parsed = parseBulkDestinations(input.destinations, { withVariables: bulkKindHasVariables(input.kind), variablesNeeded });
    if (parsed.destinations.length === 0) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'destinations', message: 'nenhum destino válido' }],
        details: { invalidLines: parsed.invalid.slice(0, 100) },
      });
    }

    const media = !bulkKindIsTemplate(input.kind) && input.mediaUrl ? await this.download(auth.tenantId, input) : null;
    const now = this.deps.clock.now();
    try {
      const created = await this.deps.events.transaction(async (tx, emit) => {
        const numbers = parsed.destinations.map((d) => d.number);
        const inserted = returnedRows<{ id: number }>(
          await tx.query(
            `INSERT INTO contacts ("tenantId", name, number)
             SELECT $1, n, n FROM unnest($2::varchar[]) AS n
             ON CONFLICT ("tenantId", number) WHERE number IS NOT NULL DO NOTHING
             RETURNING id`,
            [auth.tenantId, numbers],
          ),
        );
        const contacts = (await tx.query(`SELECT id, number FROM contacts WHERE "tenantId" = $1 AND number = ANY($2::varchar[])`, [
          auth.tenantId,
          numbers,
        ])) as { id: number; number: string }[];
        const idOf = new Map(contacts.map((c) => [c.number, c.id]));
        const [row] = (await tx.query(
          `INSERT INTO campaigns ("tenantId", name, start, status, "startedAt", message1, delay, "delayMax", "channelId", "userId",
                                  "mediaPath", "mediaName", "mimeType", kind, "bulkKind",
                                  "templateName", "templateLanguage", "templateVariables", "invalidLines")
           VALUES ($1, $2, $3, 'processing', $3, $4, $5, $6, $7, $8, $9, $10, $11, 'bulk', $12, $13, $14, $15, $16)
           RETURNING id`,
          [
            auth.tenantId,
            `Envio em massa (${input.kind}) ${now.toISOString()}`,
            now,
            bulkKindIsTemplate(input.kind) ? '' : (input.message ?? ''),
            input.minDelay,
            input.maxDelay,
            channelId,
            auth.userId,
            media?.path ?? null,
            media?.name ?? null,
            media?.mimeType ?? null,
            input.kind,
            bulkKindIsTemplate(input.kind) ? input.templateName : null,
            bulkKindIsTemplate(input.kind) ? input.templateLanguage : null,
            templateVariables ? JSON.stringify(templateVariables) : null,
            JSON.stringify(parsed.invalid),
          ],
        )) as { id: number }[];
        await tx.query(
          `INSERT INTO campaign_contacts ("campaignId", "tenantId", "contactId", variables)
           SELECT $1, $2, i.cid, i.vars::jsonb FROM unnest($3::int[], $4::text[]) WITH ORDINALITY AS i(cid, vars, ord)
           ORDER BY i.ord
           ON CONFLICT ("campaignId", "contactId") DO NOTHING`,
          [
            row.id,
            auth.tenantId,
            parsed.destinations.map((d) => idOf.get(d.number)!),
            parsed.destinations.map((d) => JSON.stringify(d.variables)),
          ],
        );
        if (inserted.length > 0) {
          const payload: ContactEventPayload = { action: 'bulk', source: 'bulkSend' };
          await emit(auth.tenantId, SOCKET_EVENTS.contactUpdate, payload);
        }
        return emitBulkSend(tx, emit, auth.tenantId, row.id, 'create');
      });
      await this.kick(channelId);
      return {
        ...created,
        invalidLines: parsed.invalid,
        complaintWarning: campaignComplaintWarning(parsed.destinations.length),
      };
    } catch (err) {
      if (media) await this.files.remove(auth.tenantId, media.path).catch(() => undefined);
      throw err;
    }
  }

  /** POST /bulk-sends/{id}/cancel: a running send stops within the message in flight; what was sent stays. */
  async cancel(auth: AuthContext, id: number): Promise<BulkSendDto> {
    authorizeBulkSends(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      const current = await loadBulkSend(tx, auth.tenantId, id, true);
      if (current.status !== 'processing' && current.status !== 'scheduled') throw new AppError('ERR_BULK_SEND_CANCEL');
      await tx.query(`UPDATE campaigns SET status = 'canceled', "canceledAt" = now(), "updatedAt" = now() WHERE id = $1`, [id]);
      return emitBulkSend(tx, emit, auth.tenantId, id, 'update');
    });
  }

  /** GET /bulk-sends/{id}/results: each destination with its outcome (paged), and the lines refused before sending. */
  async results(auth: AuthContext, id: number, query: BulkSendResultsQuery): Promise<BulkSendResultsAnswer> {
    authorizeBulkSends(auth);
    const db = this.deps.dataSource;
    await loadBulkSend(db, auth.tenantId, id);
    // The refused lines are read here only (the send's other reads carry their count).
    const [invalid] = (await db.query(`SELECT "invalidLines" FROM campaigns WHERE id = $1 AND "tenantId" = $2`, [id, auth.tenantId])) as {
      invalidLines: unknown[] | null;
    }[];
    const offset = (query.pageNumber - 1) * query.pageSize;
    const rows = (await db.query(
      `SELECT cc.id, cc."contactId", c.name, c.number, cc.variables, cc.status, cc."messageId", cc.error, cc."sentAt",
              count(*) OVER () AS total
         FROM campaign_contacts cc JOIN contacts c ON c.id = cc."contactId"
        WHERE cc."campaignId" = $1 AND cc."tenantId" = $2 AND ($3::text IS NULL OR cc.status = $3)
        ORDER BY cc.id LIMIT $4 OFFSET $5`,
      [id, auth.tenantId, query.status ?? null, query.pageSize, offset],
    )) as (BulkResultRow & { total: string })[];
    const count = rows.length > 0 ? Number(rows[0].total) : 0;
    return {
      results: rows.map(presentBulkResult),
      count,
      hasMore: offset + rows.length < count,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      invalidLines: invalidLinesOf(invalid ?? { invalidLines: null }),
    };
  }

  /** The media URL fetched once (SSRF-guarded, bounded) and kept as the send's file. */
  private async download(tenantId: number, input: BulkSendInput): Promise<{ path: string; name: string; mimeType: string }> {
    const url = input.mediaUrl!;
    let body: Buffer;
    let contentType: string;
    try {
      const res = await guardedRequest({
        url,
        timeoutMs: BULK_MEDIA_TIMEOUT_MS,
        maxBytes: CAMPAIGN_MEDIA_MAX_BYTES,
        allowHosts: this.deps.config.chatflowHttpAllowHosts,
      });
      if (res.status < 200 || res.status >= 300) throw new GuardedHttpError(`a URL respondeu ${res.status}`, 'status', res.status);
      body = res.body;
      contentType = res.contentType;
    } catch (err) {
      const reason = err instanceof GuardedHttpError ? err.message : 'falha ao baixar';
      throw new AppError('ERR_BULK_MEDIA_DOWNLOAD', { fields: [{ path: 'mediaUrl', message: reason }] });
    }
    const pathname = (() => {
      try {
        return new URL(url).pathname;
      } catch {
        return '';
      }
    })();
    let base = path.posix.basename(pathname);
    try {
      base = decodeURIComponent(base);
    } catch {
      // keep it as written
    }
    const name = safeDisplayName(base || 'arquivo');
    const ext = path.extname(name).toLowerCase();
    const type = bulkMediaTypeOf(url, input.mediaType ?? null);
    const declared = contentType.split(';')[0].trim().toLowerCase();
    const mimeType =
      MIME_BY_EXTENSION[ext] ?? (declared && declared !== 'application/octet-stream' ? declared : type === 'audio' ? 'audio/ogg' : 'application/octet-stream');
    const saved = await this.files.save(tenantId, BULK_MEDIA_FOLDER, { buffer: body, originalname: name });
    return { path: saved, name, mimeType: safeMimeType(mimeType) };
  }
}
