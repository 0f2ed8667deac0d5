import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  BRANDING_IMAGE_MAX_BYTES,
  BRANDING_MEDIA_FIELD,
  BrandingMediaKindParamsSchema,
  BrandingMediaUploadSchema,
  UpdateBrandingSchema,
  type BrandingMediaKind,
} from '@shared/schemas/white-label';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { optionalFileUpload, uploadedFile } from '../../http/multipart';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { authorizeBranding } from './white-label.policy';
import { WhiteLabelService } from './white-label.service';

/**
 * White-label branding (/customizar):
 * - GET /publicBranding, GET /publicBranding/logo, GET /publicBranding/favicon: public (the login
 *   page and the shell paint themselves with them, no rebuild);
 * - PUT /admin/branding (name), POST /admin/media-upload (logo or favicon, multipart `file` +
 *   `kind`), DELETE /admin/media-upload/{kind}: the super administrator only.
 * The superadmin check runs before the multipart body is read, so nobody else can make the
 * server read an upload.
 */
export function whiteLabelRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const superadminOnly: Middleware = async (ctx, next) => {
    authorizeBranding(authOf(ctx as AppContext), 'update');
    await next();
  };
  const upload = optionalFileUpload(BRANDING_MEDIA_FIELD, BRANDING_IMAGE_MAX_BYTES);
  const branding = new WhiteLabelService(deps);

  router.get('/publicBranding', async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await branding.get();
  });

  for (const kind of ['logo', 'favicon'] as const satisfies readonly BrandingMediaKind[]) {
    router.get(`/publicBranding/${kind}`, async (ctx) => {
      const image = await branding.image(kind);
      if (!image) throw new AppError('ERR_NOT_FOUND');
      const etag = `"${image.hash}"`;
      // A versioned URL (?v=<hash> of this very image) never changes; the bare one is revalidated.
      const versioned = typeof ctx.query.v === 'string' && image.hash.startsWith(ctx.query.v) && ctx.query.v.length >= 8;
      ctx.set('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.set('ETag', etag);
      // The type is the one detected from the bytes at upload; nothing here can run as a page.
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      if (ctx.get('If-None-Match') === etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = image.type;
      ctx.body = image.bytes;
    });
  }

  router.put('/admin/branding', auth, superadminOnly, validate(UpdateBrandingSchema), async (ctx: AppContext) => {
    ctx.body = await branding.updateName(authOf(ctx), ctx.input);
  });

  router.post('/admin/media-upload', auth, superadminOnly, upload, validate(BrandingMediaUploadSchema), async (ctx: AppContext) => {
    ctx.body = await branding.upload(authOf(ctx), ctx.input.kind, uploadedFile(ctx));
  });

  router.delete('/admin/media-upload/:kind', auth, superadminOnly, validate(BrandingMediaKindParamsSchema, 'params'), async (ctx: AppContext) => {
    ctx.body = await branding.removeImage(authOf(ctx), ctx.input.kind);
  });

  return router;
}
