import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { optionalFileUpload, uploadedFile } from '../../http/multipart';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import {
  CreateQuickMessageSchema,
  QUICK_MESSAGE_MEDIA_FIELD,
  QUICK_MESSAGE_MEDIA_MAX_BYTES,
  UpdateQuickMessageSchema,
} from './quick-messages.schema';
import { QuickMessagesService } from './quick-messages.service';

/**
 * Quick messages (anchor paths): GET/POST /fastreply, PUT/DELETE /fastreply/:fastReplyId, and
 * GET /fastreply/:fastReplyId/file (the attached file, for authenticated users of the tenant).
 * Writes take JSON or multipart/form-data (file in `medias`):
 * auth -> multipart -> validate(zod) -> handler.
 */
/** Read-only fields of a quick message that an editing client (the anchor's) sends back. */
const QUICK_MESSAGE_ECHOED = [...ECHOED_ROW_FIELDS, 'mediaName', 'mediaType', 'mediaUrl'];

export function quickMessagesRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const upload = optionalFileUpload(QUICK_MESSAGE_MEDIA_FIELD, QUICK_MESSAGE_MEDIA_MAX_BYTES);
  const quickMessages = new QuickMessagesService(deps);

  router.get('/fastreply', auth, async (ctx: AppContext) => {
    ctx.body = await quickMessages.list(authOf(ctx));
  });

  router.post('/fastreply', auth, upload, validate(CreateQuickMessageSchema, 'body', { echoed: QUICK_MESSAGE_ECHOED }), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await quickMessages.create(authOf(ctx), ctx.input, uploadedFile(ctx));
  });

  router.put('/fastreply/:fastReplyId', auth, upload, validate(UpdateQuickMessageSchema, 'body', { echoed: QUICK_MESSAGE_ECHOED }), async (ctx: AppContext) => {
    ctx.body = await quickMessages.update(authOf(ctx), intParam(ctx, 'fastReplyId'), ctx.input, uploadedFile(ctx));
  });

  router.delete('/fastreply/:fastReplyId', auth, async (ctx: AppContext) => {
    await quickMessages.remove(authOf(ctx), intParam(ctx, 'fastReplyId'));
    ctx.status = 204;
  });

  router.get('/fastreply/:fastReplyId/file', auth, async (ctx: AppContext) => {
    const file = await quickMessages.openFile(authOf(ctx), intParam(ctx, 'fastReplyId'));
    ctx.set('Content-Type', file.type);
    ctx.set('Content-Length', String(file.size));
    ctx.set('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    // Uploaded bytes are never run as a page of this origin, whatever their declared type.
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = file.stream;
  });

  return router;
}
