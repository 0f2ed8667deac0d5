import { SOCKET_EVENTS } from '@shared/events';
import {
  campaignComplaintWarning,
  isCampaignCancelable,
  isCampaignEditable,
  isCampaignStartValid,
  type CampaignDetailDto,
  type CampaignDto,
  type CampaignInput,
} from '@shared/schemas/campaigns';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { Queryable } from '../../core/tenant-catalog';
import { TenantFileStore, safeDisplayName, safeMimeType } from '../../core/tenant-file-store';
import type { AppDeps } from '../../deps';
import type { UploadedFile } from '../../http/multipart';
import type { Emit } from '../../realtime/domain-events';
import { returnedRows } from '../messages/messages.query';
import { assertCampaignTemplate } from './campaign-template';
import { authorizeCampaigns } from './campaigns.policy';
import { CAMPAIGN_AUDIENCE, CAMPAIGN_SELECT, loadCampaignRow, presentCampaign, type CampaignRow } from './campaigns.presenter';

export const CAMPAIGN_MEDIA_FOLDER = 'campaigns';

/** templateName, templateLanguage, templateVariables of a campaign's row (all null for free text). */
function templateColumns(input: CampaignInput): [string | null, string | null, string | null] {
  if (!input.templateName) return [null, null, null];
  return [input.templateName, input.templateLanguage ?? null, JSON.stringify(input.templateVariables)];
}

/**
 * The campaign of the caller's tenant, or ERR_NO_CAMPAIGN_FOUND (another tenant's is not found
 * either, nor a bulk send: those are campaign rows of kind 'bulk', reached under /bulk-sends).
 */
export async function loadCampaign(db: Queryable, tenantId: number, id: number, lock = false): Promise<CampaignRow> {
  const row = await loadCampaignRow(db, tenantId, id, 'campaign', lock);
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return row;
}

/** Records `campaign:update` with the campaign as it is now (inside the writer's transaction). */
export async function emitCampaign(
  tx: Queryable,
  emit: Emit,
  tenantId: number,
  id: number,
  action: 'create' | 'update' | 'progress',
): Promise<CampaignDto> {
  const campaign = presentCampaign(await loadCampaign(tx, tenantId, id));
  await emit(tenantId, SOCKET_EVENTS.campaignUpdate, { action, campaign }, CAMPAIGN_AUDIENCE);
  return campaign;
}

/**
 * Campaigns: CRUD and the state machine of spec section 4.
 *
 *   pending  --start--> scheduled --(start time, sweep)--> processing --(no pending rows)--> finished
 *   scheduled | processing --cancel--> canceled --start--> scheduled (the rows still pending go out)
 *
 * Only pending or canceled campaigns may be edited, have their contacts changed, or be scheduled;
 * scheduling needs linked contacts and a start not in the past. Sending is campaign.sender.ts.
 */
export class CampaignsService {
  private readonly files: TenantFileStore;

  constructor(
    private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'config' | 'logger'>,
    private readonly kick: (channelId: number) => Promise<void>,
  ) {
    this.files = new TenantFileStore(deps.config.dataDir);
  }

  async list(auth: AuthContext): Promise<CampaignDto[]> {
    authorizeCampaigns(auth);
    const rows: CampaignRow[] = await this.deps.dataSource.query(`${CAMPAIGN_SELECT} WHERE ca."tenantId" = $1 AND ca.kind = 'campaign' ORDER BY ca.id DESC`, [
      auth.tenantId,
    ]);
    return rows.map(presentCampaign);
  }

  async get(auth: AuthContext, id: number): Promise<CampaignDetailDto> {
    authorizeCampaigns(auth);
    const campaign = presentCampaign(await loadCampaign(this.deps.dataSource, auth.tenantId, id));
    return { ...campaign, complaintWarning: campaignComplaintWarning(campaign.counts.contacts) };
  }

  async create(auth: AuthContext, input: CampaignInput, file?: UploadedFile): Promise<CampaignDto> {
    authorizeCampaigns(auth);
    await this.assertReferences(auth.tenantId, input);
    const media = file ? await this.saveMedia(auth.tenantId, file) : null;
    try {
      return await this.deps.events.transaction(async (tx, emit) => {
        const [row] = (await tx.query(
          `INSERT INTO campaigns ("tenantId", name, start, message1, message2, message3, delay, "channelId", "queueId", "userId",
                                  "mediaPath", "mediaName", "mimeType", "templateName", "templateLanguage", "templateVariables")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
          [
            auth.tenantId,
            input.name,
            input.start,
            input.message1,
            input.message2 ?? null,
            input.message3 ?? null,
            input.delay,
            input.channelId,
            input.queueId ?? null,
            auth.userId,
            media?.path ?? null,
            media?.name ?? null,
            media?.mimeType ?? null,
            ...templateColumns(input),
          ],
        )) as { id: number }[];
        return emitCampaign(tx, emit, auth.tenantId, row.id, 'create');
      });
    } catch (err) {
      if (media) await this.files.remove(auth.tenantId, media.path).catch(() => undefined);
      throw err;
    }
  }

  async update(auth: AuthContext, id: number, input: CampaignInput, file?: UploadedFile): Promise<CampaignDto> {
    authorizeCampaigns(auth);
    // Another tenant's campaign is not found before anything about the body is said.
    await loadCampaign(this.deps.dataSource, auth.tenantId, id);
    await this.assertReferences(auth.tenantId, input);
    const media = file ? await this.saveMedia(auth.tenantId, file) : null;
    let oldMedia: string | null = null;
    try {
      const campaign = await this.deps.events.transaction(async (tx, emit) => {
        const current = await loadCampaign(tx, auth.tenantId, id, true);
        if (!isCampaignEditable(current.status)) throw new AppError('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
        const replaceMedia = media !== null || input.removeMedia === true;
        if (replaceMedia) oldMedia = current.mediaPath;
        await tx.query(
          `UPDATE campaigns SET name = $3, start = $4, message1 = $5, message2 = $6, message3 = $7, delay = $8, "channelId" = $9,
                  "queueId" = $10,
                  "mediaPath" = CASE WHEN $11 THEN $12 ELSE "mediaPath" END,
                  "mediaName" = CASE WHEN $11 THEN $13 ELSE "mediaName" END,
                  "mimeType" = CASE WHEN $11 THEN $14 ELSE "mimeType" END,
                  "templateName" = $15, "templateLanguage" = $16, "templateVariables" = $17,
                  "updatedAt" = now()
            WHERE id = $1 AND "tenantId" = $2`,
          [
            id,
            auth.tenantId,
            input.name,
            input.start,
            input.message1,
            input.message2 ?? null,
            input.message3 ?? null,
            input.delay,
            input.channelId,
            input.queueId ?? null,
            replaceMedia,
            media?.path ?? null,
            media?.name ?? null,
            media?.mimeType ?? null,
            ...templateColumns(input),
          ],
        );
        return emitCampaign(tx, emit, auth.tenantId, id, 'update');
      });
      if (oldMedia) await this.files.remove(auth.tenantId, oldMedia).catch(() => undefined);
      return campaign;
    } catch (err) {
      if (media) await this.files.remove(auth.tenantId, media.path).catch(() => undefined);
      throw err;
    }
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    authorizeCampaigns(auth);
    const mediaPath = await this.deps.events.transaction(async (tx, emit) => {
      const current = await loadCampaign(tx, auth.tenantId, id, true);
      if (current.status === 'scheduled' || current.status === 'processing') throw new AppError('ERR_CAMPAIGN_DELETE_RUNNING');
      await tx.query(`DELETE FROM campaigns WHERE id = $1 AND "tenantId" = $2`, [id, auth.tenantId]);
      await emit(auth.tenantId, SOCKET_EVENTS.campaignDelete, { action: 'delete', id }, CAMPAIGN_AUDIENCE);
      return current.mediaPath;
    });
    if (mediaPath) await this.files.remove(auth.tenantId, mediaPath).catch(() => undefined);
  }

  /**
   * POST /campaigns/start/{id}: pending or canceled -> scheduled, at the campaign's start (or now
   * with `startNow`). The sweep moves it to processing when the start comes; a start already due
   * is kicked at once.
   */
  async start(auth: AuthContext, id: number, opts: { startNow?: boolean }): Promise<CampaignDto> {
    authorizeCampaigns(auth);
    const now = this.deps.clock.now();
    const campaign = await this.deps.events.transaction(async (tx, emit) => {
      const current = await loadCampaign(tx, auth.tenantId, id, true);
      if (!isCampaignEditable(current.status)) throw new AppError('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
      const [linked] = (await tx.query(
        `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*)::int AS total
           FROM campaign_contacts WHERE "campaignId" = $1`,
        [id],
      )) as { pending: number; total: number }[];
      if (linked.total === 0) throw new AppError('ERR_NO_CAMPAIGN_CONTACTS_NOT_FOUND');
      if (linked.pending === 0) {
        throw new AppError('ERR_CAMPAIGN_CONTACTS', { message: 'Todos os contatos desta campanha já foram processados.' });
      }
      const start = opts.startNow ? now : new Date(current.start);
      if (!isCampaignStartValid(start, now)) throw new AppError('ERROR_CAMPAIGN_DATE_NOT_VALID');
      const channel = (await tx.query(`SELECT id FROM channels WHERE id = $1 AND "tenantId" = $2`, [
        current.channelId,
        auth.tenantId,
      ])) as unknown[];
      if (current.channelId === null || channel.length === 0) throw new AppError('ERR_CAMPAIGN_START');
      await tx.query(
        `UPDATE campaigns SET status = 'scheduled', start = $3, "canceledAt" = NULL, "finishedAt" = NULL, "updatedAt" = now()
          WHERE id = $1 AND "tenantId" = $2`,
        [id, auth.tenantId, start],
      );
      return emitCampaign(tx, emit, auth.tenantId, id, 'update');
    });
    if (new Date(campaign.start).getTime() <= now.getTime() + 1000 && campaign.channelId !== null) {
      await this.promoteDue();
      await this.kick(campaign.channelId);
    }
    return campaign;
  }

  /**
   * POST /campaigns/cancel/{id}: scheduled or processing -> canceled. The sender claims a contact
   * only while its campaign is processing, so at most the one message in flight still goes out.
   */
  async cancel(auth: AuthContext, id: number): Promise<CampaignDto> {
    authorizeCampaigns(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      const current = await loadCampaign(tx, auth.tenantId, id, true);
      if (!isCampaignCancelable(current.status)) throw new AppError('ERR_CAMPAIGN_CANCEL');
      await tx.query(
        `UPDATE campaigns SET status = 'canceled', "canceledAt" = now(), "updatedAt" = now() WHERE id = $1 AND "tenantId" = $2`,
        [id, auth.tenantId],
      );
      return emitCampaign(tx, emit, auth.tenantId, id, 'update');
    });
  }

  /**
   * POST /campaigns/duplicate/{id}: a new pending campaign with the same messages, media, channel
   * and contacts (all pending again), named "<name> (cópia)", starting now-or-later as the original.
   */
  async duplicate(auth: AuthContext, id: number): Promise<CampaignDto> {
    authorizeCampaigns(auth);
    const source = await loadCampaign(this.deps.dataSource, auth.tenantId, id);
    let copiedMedia: string | null = null;
    if (source.mediaPath) {
      const opened = await this.files.open(auth.tenantId, source.mediaPath);
      if (opened) {
        const chunks: Buffer[] = [];
        for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
        copiedMedia = await this.files.save(auth.tenantId, CAMPAIGN_MEDIA_FOLDER, {
          buffer: Buffer.concat(chunks),
          originalname: source.mediaName ?? 'arquivo',
        });
      }
    }
    const now = this.deps.clock.now();
    const start = new Date(source.start).getTime() < now.getTime() ? now : new Date(source.start);
    return this.deps.events.transaction(async (tx, emit) => {
      const [row] = (await tx.query(
        `INSERT INTO campaigns ("tenantId", name, start, message1, message2, message3, delay, "channelId", "queueId", "userId",
                                "mediaPath", "mediaName", "mimeType", "templateName", "templateLanguage", "templateVariables")
         SELECT "tenantId", left(name || ' (cópia)', 120), $3, message1, message2, message3, delay, "channelId", "queueId", $4,
                $5, CASE WHEN $5::text IS NULL THEN NULL ELSE "mediaName" END, CASE WHEN $5::text IS NULL THEN NULL ELSE "mimeType" END,
                "templateName", "templateLanguage", "templateVariables"
           FROM campaigns WHERE id = $1 AND "tenantId" = $2 AND kind = 'campaign'
         RETURNING id`,
        [id, auth.tenantId, start, auth.userId, copiedMedia],
      )) as { id: number }[];
      await tx.query(
        `INSERT INTO campaign_contacts ("campaignId", "tenantId", "contactId")
         SELECT $1, "tenantId", "contactId" FROM campaign_contacts WHERE "campaignId" = $2 AND "tenantId" = $3 ORDER BY id`,
        [row.id, id, auth.tenantId],
      );
      return emitCampaign(tx, emit, auth.tenantId, row.id, 'create');
    });
  }

  /** Scheduled campaigns whose start has come become processing (the sweep and a start for now). */
  async promoteDue(): Promise<{ id: number; tenantId: number; channelId: number | null }[]> {
    return this.deps.events.transaction(async (tx, emit) => {
      const promoted = returnedRows<{ id: number; tenantId: number; channelId: number | null }>(
        await tx.query(
          `UPDATE campaigns SET status = 'processing', "startedAt" = COALESCE("startedAt", now()), "updatedAt" = now()
            WHERE status = 'scheduled' AND start <= $1 AND kind = 'campaign'
            RETURNING id, "tenantId", "channelId"`,
          [this.deps.clock.now()],
        ),
      );
      for (const c of promoted) await emitCampaign(tx, emit, c.tenantId, c.id, 'update');
      return promoted;
    });
  }

  private async assertReferences(tenantId: number, input: CampaignInput): Promise<void> {
    const [row] = (await this.deps.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM channels WHERE id = $2 AND "tenantId" = $1) AS channel,
              ($3::int IS NULL OR EXISTS (SELECT 1 FROM queues WHERE id = $3 AND "tenantId" = $1)) AS queue`,
      [tenantId, input.channelId, input.queueId ?? null],
    )) as { channel: boolean; queue: boolean }[];
    const fields: { path: string; message: string }[] = [];
    if (!row.channel) fields.push({ path: 'channelId', message: 'conexão não encontrada' });
    if (!row.queue) fields.push({ path: 'queueId', message: 'fila não encontrada' });
    if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
    if (input.templateName) {
      await assertCampaignTemplate(this.deps.dataSource, tenantId, input.channelId, {
        templateName: input.templateName,
        templateLanguage: input.templateLanguage ?? '',
        variables: input.templateVariables,
      });
    }
  }

  private async saveMedia(tenantId: number, file: UploadedFile): Promise<{ path: string; name: string; mimeType: string }> {
    const name = safeDisplayName(file.originalname);
    const path = await this.files.save(tenantId, CAMPAIGN_MEDIA_FOLDER, { buffer: file.buffer, originalname: name });
    return { path, name, mimeType: safeMimeType(file.mimetype) };
  }
}
