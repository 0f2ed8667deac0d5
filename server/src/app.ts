import Koa from 'koa';
import cors from '@koa/cors';
import { bodyParser } from '@koa/bodyparser';
import serve from 'koa-static';
import type { AppDeps } from './deps';
import type { AppState } from './http/context';
import { cspReportRoute } from './http/csp-report';
import { errorHandler } from './http/error-handler';
import { inputGuard } from './http/input-guard';
import { decideOrigin, refuseForeignOrigins } from './http/origin-policy';
import { requestId } from './http/request-id';
import { securityHeaders } from './http/security-headers';
import { moduleRouters } from './modules';

/** Builds the Koa app from explicit dependencies (ARCHITECTURE: Server). */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy });
  // A client that hangs up mid-download is not a server error; everything else is logged once.
  app.on('error', (err: NodeJS.ErrnoException, ctx?: { path?: string }) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'EPIPE' || err.code === 'ECONNRESET') return;
    deps.logger.error({ err, path: ctx?.path }, 'response error');
  });
  app.use(requestId(deps.logger));
  app.use(errorHandler(deps.logger));
  const { corsOrigins } = deps.config;
  app.use(
    cors({
      // '' sends no CORS header: the browser keeps the answer from the page.
      origin: (ctx) => {
        const decision = decideOrigin(ctx.get('origin'), ctx.host, corsOrigins);
        if (decision.kind !== 'allowed') return '';
        return decision.credentials ? ctx.get('origin') : '*';
      },
      credentials: (ctx) => {
        const decision = decideOrigin(ctx.get('origin'), ctx.host, corsOrigins);
        return decision.kind === 'allowed' && decision.credentials;
      },
      exposeHeaders: ['X-Request-Id', 'Retry-After', 'Content-Disposition'],
    }),
  );
  app.use(refuseForeignOrigins(corsOrigins));
  app.use(securityHeaders());
  app.use(cspReportRoute(deps));
  app.use(
    bodyParser({
      jsonLimit: deps.config.bodyLimit,
      formLimit: deps.config.bodyLimit,
      textLimit: deps.config.bodyLimit,
      enableTypes: ['json', 'form'],
      // Webhook signatures (Meta X-Hub-Signature-256) are checked over the raw body.
      rawBody: true,
    } as Parameters<typeof bodyParser>[0]),
  );
  app.use(inputGuard());
  for (const router of moduleRouters(deps)) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  // The web app (same React bundle as the desktop console), served at `/` when built.
  // Mounted even when not built yet: a build finishing after start is served without a restart.
  // The build writes each text file also as .gz and .br (desktop/renderer/vite.config.ts,
  // precompress); koa-static sends the one the browser accepts, so a cache must key on it.
  app.use(async (ctx, next) => {
    ctx.vary('Accept-Encoding');
    await next();
  });
  app.use(serve(deps.config.webDist, { index: 'index.html', maxage: 0, gzip: true, brotli: true }));
  return app;
}
