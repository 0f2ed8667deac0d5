import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import {
  AdminCreateChannelSchema,
  ChannelBirthdaySchema,
  ChannelFarewellSchema,
  CreateChannelSchema,
  UpdateChannelSchema,
} from './channels.schema';
import { ChannelsService } from './channels.service';

/**
 * Channels (anchor paths, docs/api.md "Channels"). Each route: auth -> validate(zod) -> handler.
 *   GET    /whatsapp, /whatsapp/              list                  200 [ChannelDto]
 *   GET    /whatsapp/:whatsappId              one                   200 ChannelDto
 *   GET    /whatsapp/:whatsappId/templates    stored WABA message templates (?refresh=1: sync when none)  200 [StoredTemplateDto]
 *   POST   /whatsapp/:whatsappId/templates/sync   sync them from the business account  200 TemplateSyncResult
 *   POST   /whatsapp                          create                201 ChannelDto
 *   PUT    /whatsapp/:whatsappId              configure             200 ChannelDto
 *   PUT    /whatsapp/:whatsappId/default      make it the default   200 ChannelDto
 *   PUT    /whatsapp/:whatsappId/birthday     birthday message and hour (super, admin)  200 ChannelDto
 *   PUT    /whatsapp/:whatsappId/farewell     farewell message (super, admin)           200 ChannelDto
 *   DELETE /whatsapp/:whatsappId              delete                204
 *   POST|PUT /whatsappsession/:whatsappId     start / restart the session   200 ChannelDto
 *   DELETE /whatsappsession/:whatsappId       end the session       200 ChannelDto
 *   GET    /admin/channels                    every tenant's channels (superadmin)  200 [AdminChannelDto]
 *   POST   /admin/channels                    create for a tenant (superadmin)      201 AdminChannelDto
 */
/**
 * Read-only fields of a ChannelDto: the anchor's connections screen saves a channel by sending
 * back the row it listed (e.g. toggling one option), so these are accepted and ignored.
 */
const CHANNEL_ECHOED = [
  ...ECHOED_ROW_FIELDS,
  'type',
  'status',
  'statusReason',
  'qrcode',
  'hasTelegramToken',
  'retries',
  'number',
  'isDefault',
  'hasManagerToken',
  'hasAppSecret',
  'hasVerifyToken',
  'webhookUrl',
  'providerSettings',
  'storedSecrets',
  'pairingCode',
];

export function channelsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const channels = new ChannelsService(deps);
  const id = (ctx: AppContext) => intParam(ctx, 'whatsappId');

  router.get(['/whatsapp', '/whatsapp/'], auth, async (ctx: AppContext) => {
    ctx.body = await channels.list(authOf(ctx));
  });
  router.post(['/whatsapp', '/whatsapp/'], auth, validate(CreateChannelSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await channels.create(authOf(ctx), ctx.input);
  });
  router.get('/whatsapp/:whatsappId/templates', auth, async (ctx: AppContext) => {
    const refresh = ctx.query.refresh === '1' || ctx.query.refresh === 'true';
    ctx.body = await channels.templates(authOf(ctx), id(ctx), { refresh });
  });
  router.post('/whatsapp/:whatsappId/templates/sync', auth, async (ctx: AppContext) => {
    ctx.body = await channels.syncTemplates(authOf(ctx), id(ctx));
  });
  router.put('/whatsapp/:whatsappId/default', auth, async (ctx: AppContext) => {
    ctx.body = await channels.setDefault(authOf(ctx), id(ctx));
  });
  router.put('/whatsapp/:whatsappId/birthday', auth, validate(ChannelBirthdaySchema), async (ctx: AppContext) => {
    ctx.body = await channels.updateAutomaticMessages(authOf(ctx), id(ctx), ctx.input);
  });
  router.put('/whatsapp/:whatsappId/farewell', auth, validate(ChannelFarewellSchema), async (ctx: AppContext) => {
    ctx.body = await channels.updateAutomaticMessages(authOf(ctx), id(ctx), ctx.input);
  });
  router.get('/whatsapp/:whatsappId', auth, async (ctx: AppContext) => {
    ctx.body = await channels.get(authOf(ctx), id(ctx));
  });
  router.put('/whatsapp/:whatsappId', auth, validate(UpdateChannelSchema, 'body', { echoed: CHANNEL_ECHOED }), async (ctx: AppContext) => {
    ctx.body = await channels.update(authOf(ctx), id(ctx), ctx.input);
  });
  router.delete('/whatsapp/:whatsappId', auth, async (ctx: AppContext) => {
    await channels.remove(authOf(ctx), id(ctx));
    ctx.status = 204;
  });

  router.post('/whatsappsession/:whatsappId', auth, async (ctx: AppContext) => {
    ctx.body = await channels.startSession(authOf(ctx), id(ctx));
  });
  router.put('/whatsappsession/:whatsappId', auth, async (ctx: AppContext) => {
    ctx.body = await channels.startSession(authOf(ctx), id(ctx));
  });
  router.delete('/whatsappsession/:whatsappId', auth, async (ctx: AppContext) => {
    ctx.body = await channels.endSession(authOf(ctx), id(ctx));
  });

  router.get(['/admin/channels', '/admin/channels/'], auth, async (ctx: AppContext) => {
    ctx.body = await channels.listAllTenants(authOf(ctx));
  });
  router.post(['/admin/channels', '/admin/channels/'], auth, validate(AdminCreateChannelSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await channels.createForTenant(authOf(ctx), ctx.input);
  });

  return router;
}
