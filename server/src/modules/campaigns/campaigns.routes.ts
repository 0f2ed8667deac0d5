import Router from '@koa/router';
import type { Middleware } from 'koa';
import { unlink } from 'node:fs/promises';
import {
  CAMPAIGN_IMPORT_MAX_BYTES,
  CAMPAIGN_MEDIA_MAX_BYTES,
  CampaignContactsQuerySchema,
  CampaignSchema,
  LinkCampaignContactsSchema,
  StartCampaignSchema,
} from '@shared/schemas/campaigns';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { optionalFileUpload, uploadedFile } from '../../http/multipart';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { receiveImportFile } from '../contacts/contact-import.upload';
import { CampaignContactImport } from './campaign-contact-import';
import { CampaignContactsService } from './campaign-contacts.service';
import { registerCampaignAnswers } from './campaign-answer';
import { registerCampaignOptOut } from './campaign-opt-out';
import { campaignReport } from './campaign-report';
import { CAMPAIGN_SEND_JOB, CAMPAIGN_SWEEP_INTERVAL_MS, CAMPAIGN_SWEEP_JOB, CampaignSender } from './campaign.sender';
import { authorizeCampaigns } from './campaigns.policy';
import { CampaignsService } from './campaigns.service';

/** Fields of a campaign row the anchor's web client sends back with an edit: accepted and ignored. */
const ECHOED_CAMPAIGN_FIELDS = [
  ...ECHOED_ROW_FIELDS,
  'status',
  'mediaUrl',
  'mediaType',
  'mediaName',
  'mimeType',
  'hasMedia',
  'contactsCount',
  'pendentesEnvio',
  'pendentesEntrega',
  'recebidas',
  'lidas',
  'counts',
  'channelName',
  'startedAt',
  'finishedAt',
  'canceledAt',
  'medias',
];

const senders = new WeakMap<AppDeps, CampaignSender>();

/**
 * The sender of a server, built once per app and wired to its `campaigns.send` job (one Bull
 * queue of its own, one step at a time per process: campaign work never takes a slot of
 * `messages.deliver`), the `campaigns.sweep` periodic task (starts due campaigns, recovers
 * interrupted sends, wakes senders after a restart), the opt-out inbound hook and the campaign
 * answer opening hook (campaign-answer.ts).
 */
export function campaignSenderOf(deps: AppDeps, promoteDue: () => Promise<unknown>): CampaignSender {
  const existing = senders.get(deps);
  if (existing) return existing;
  const sender = new CampaignSender(deps);
  senders.set(deps, sender);
  deps.jobs.process<{ channelId: number }>(
    CAMPAIGN_SEND_JOB,
    async (data) => {
      await sender.step(Number(data.channelId));
    },
    { concurrency: 1 },
  );
  deps.periodic.register({
    name: CAMPAIGN_SWEEP_JOB,
    intervalMs: CAMPAIGN_SWEEP_INTERVAL_MS,
    run: () => sender.sweep(promoteDue),
  });
  registerCampaignOptOut(deps);
  registerCampaignAnswers(deps);
  return sender;
}

/**
 * Campaigns (issue #16; anchor paths, docs/api.md): auth -> profile gate (supervisors and
 * administrators; agents 403) -> validate(zod from shared/schemas/campaigns) -> handler.
 *   GET    /campaigns                                list (with counts)
 *   GET    /campaigns/:campaignId                    one, with the 2% complaint warning
 *   POST   /campaigns                                create (JSON or multipart, file in `medias`)
 *   PUT    /campaigns/:campaignId                    edit (pending or canceled only)
 *   DELETE /campaigns/:campaignId                    delete (not while scheduled or processing)
 *   POST   /campaigns/start/:campaignId              schedule ({ startNow? })
 *   POST   /campaigns/cancel/:campaignId             cancel
 *   POST   /campaigns/duplicate/:campaignId          copy with its contacts
 *   GET    /campaigns/report/:campaignId             PDF report
 *   POST   /campaigns/contacts/:campaignId           link contacts (ids and/or filter)
 *   POST   /campaigns/contacts/:campaignId/import    link by a CSV/XLSX file (multipart `file`; unknown numbers created)
 *   GET    /campaigns/contacts/:campaignId           contacts with status and reason (paged)
 *   DELETE /campaigns/contacts/:campaignId/:contactId
 *   DELETE /campaigns/deleteall/contacts/:campaignId
 */
export function campaignsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  // The sender's sweep starts due campaigns through the service, which kicks the sender: built in two steps.
  const holder: { service?: CampaignsService } = {};
  const sender = campaignSenderOf(deps, () => holder.service!.promoteDue());
  const service = new CampaignsService(deps, (channelId) => sender.kick(channelId));
  holder.service = service;
  const contacts = new CampaignContactsService(deps);
  const importer = new CampaignContactImport(deps);
  const allowed: Middleware = async (ctx, next) => {
    authorizeCampaigns(authOf(ctx as AppContext));
    await next();
  };
  const upload = optionalFileUpload('medias', CAMPAIGN_MEDIA_MAX_BYTES);
  const campaignBody = validate(CampaignSchema, 'body', { echoed: ECHOED_CAMPAIGN_FIELDS, aliases: { sessionId: 'channelId' } });
  const noStore: Middleware = async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };

  router.get('/campaigns', auth, allowed, noStore, async (ctx: AppContext) => {
    ctx.body = await service.list(authOf(ctx));
  });
  router.post('/campaigns', auth, allowed, upload, campaignBody, async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await service.create(authOf(ctx), ctx.input, uploadedFile(ctx));
  });
  router.post('/campaigns/start/:campaignId', auth, allowed, validate(StartCampaignSchema), async (ctx: AppContext) => {
    ctx.body = await service.start(authOf(ctx), intParam(ctx, 'campaignId'), ctx.input);
  });
  router.post('/campaigns/cancel/:campaignId', auth, allowed, async (ctx: AppContext) => {
    ctx.body = await service.cancel(authOf(ctx), intParam(ctx, 'campaignId'));
  });
  router.post('/campaigns/duplicate/:campaignId', auth, allowed, async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await service.duplicate(authOf(ctx), intParam(ctx, 'campaignId'));
  });
  router.get('/campaigns/report/:campaignId', auth, allowed, async (ctx: AppContext) => {
    const file = await campaignReport(deps, authOf(ctx), intParam(ctx, 'campaignId'));
    ctx.set('Cache-Control', 'no-store');
    ctx.attachment(file.fileName);
    ctx.type = 'application/pdf';
    ctx.body = file.body;
  });
  router.post('/campaigns/contacts/:campaignId', auth, allowed, validate(LinkCampaignContactsSchema), async (ctx: AppContext) => {
    ctx.body = await contacts.link(authOf(ctx), intParam(ctx, 'campaignId'), ctx.input);
  });
  router.post('/campaigns/contacts/:campaignId/import', auth, allowed, async (ctx: AppContext) => {
    const caller = authOf(ctx);
    const campaignId = intParam(ctx, 'campaignId');
    // 404 / 400 (not editable) before the body is read: a refused request writes no file.
    await importer.precheck(caller, campaignId);
    const file = await receiveImportFile(ctx, importer.uploadDir(caller.tenantId), CAMPAIGN_IMPORT_MAX_BYTES);
    try {
      ctx.body = await importer.import(caller, campaignId, file);
    } finally {
      await unlink(file.path).catch(() => undefined);
    }
  });
  router.get(
    '/campaigns/contacts/:campaignId',
    auth,
    allowed,
    noStore,
    validate(CampaignContactsQuerySchema, 'query'),
    async (ctx: AppContext) => {
      ctx.body = await contacts.list(authOf(ctx), intParam(ctx, 'campaignId'), ctx.input);
    },
  );
  router.delete('/campaigns/contacts/:campaignId/:contactId', auth, allowed, async (ctx: AppContext) => {
    ctx.body = await contacts.unlink(authOf(ctx), intParam(ctx, 'campaignId'), intParam(ctx, 'contactId'));
  });
  router.delete('/campaigns/deleteall/contacts/:campaignId', auth, allowed, async (ctx: AppContext) => {
    ctx.body = await contacts.unlink(authOf(ctx), intParam(ctx, 'campaignId'), 'all');
  });
  router.get('/campaigns/:campaignId', auth, allowed, noStore, async (ctx: AppContext) => {
    ctx.body = await service.get(authOf(ctx), intParam(ctx, 'campaignId'));
  });
  router.put('/campaigns/:campaignId', auth, allowed, upload, campaignBody, async (ctx: AppContext) => {
    ctx.body = await service.update(authOf(ctx), intParam(ctx, 'campaignId'), ctx.input, uploadedFile(ctx));
  });
  router.delete('/campaigns/:campaignId', auth, allowed, async (ctx: AppContext) => {
    await service.remove(authOf(ctx), intParam(ctx, 'campaignId'));
    ctx.status = 204;
  });

  return router;
}
