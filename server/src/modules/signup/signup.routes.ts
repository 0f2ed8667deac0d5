import Router from '@koa/router';
import type { Middleware } from 'koa';
import { signupConfirmSchema, signupSchema, signupSettingsSchema, type SignupRequest } from '@shared/schemas/signup';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { attemptLimit } from '../auth/auth.rate-limit';
import { CaptchaService } from '../auth/captcha.service';
import { requireAuth } from '../auth/require-auth';
import { authorizeSignupAdministration } from './signup.policy';
import { SignupService } from './signup.service';

/**
 * Self sign-up (anchor path POST /empresa/signup) and its e-mail confirmation, public; the
 * super administrator's pending list, confirmation and sign-up switch under /admin.
 * Sign-up chain: rate limit -> switch -> validate -> captcha -> handler.
 */
export function signupRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const service = new SignupService(deps);
  const captcha = new CaptchaService(deps);
  const { loginRateLimitMax, loginRateLimitIpMax, loginRateLimitWindowMs } = deps.config;
  // Every attempt counts (a sign-up creates a tenant and sends a mail): per e-mail and IP, and per IP.
  const signupLimit = attemptLimit({
    limiter: deps.rateLimiter,
    name: 'signup',
    windowMs: loginRateLimitWindowMs,
    counters: [
      { scope: 'email+ip', max: loginRateLimitMax, onSuccess: 'keep' },
      { scope: 'ip', max: loginRateLimitIpMax, onSuccess: 'keep' },
    ],
  });
  const confirmLimit = attemptLimit({
    limiter: deps.rateLimiter,
    name: 'signup-confirm',
    windowMs: loginRateLimitWindowMs,
    counters: [{ scope: 'ip', max: loginRateLimitIpMax, onSuccess: 'keep' }],
  });
  // Switched off, every sign-up is refused the same way, whatever its body.
  const signupOpen: Middleware = async (_ctx, next) => {
    if (!(await service.allowed())) throw new AppError('ERR_USER_CREATION_DISABLED');
    await next();
  };

  router.get('/empresa/signup/status', async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { allowSignup: await service.allowed() };
  });

  router.post('/empresa/signup', signupLimit, signupOpen, validate(signupSchema), async (ctx: AppContext) => {
    const input = ctx.input as SignupRequest;
    // Before anything is written or hashed: no answer, no sign-up.
    await captcha.verify(input.captchaToken, input.captchaSolution);
    ctx.status = 201;
    ctx.body = await service.signUp(input);
  });

  router.post('/empresa/signup/confirm', confirmLimit, validate(signupConfirmSchema), async (ctx: AppContext) => {
    ctx.body = await service.confirmByToken(ctx.input.token);
  });

  router.get('/admin/signups', auth, async (ctx: AppContext) => {
    ctx.body = await service.listPending(authOf(ctx));
  });
  router.post('/admin/signups/:tenantId/confirm', auth, async (ctx: AppContext) => {
    const caller = authOf(ctx);
    // Refused before the id is even read: a bad id from another profile is a 403, not a 400.
    authorizeSignupAdministration(caller);
    ctx.body = await service.confirmBySuperadmin(caller, intParam(ctx, 'tenantId'));
  });

  router.get('/admin/signup-settings', auth, async (ctx: AppContext) => {
    ctx.body = await service.settings(authOf(ctx));
  });
  router.put('/admin/signup-settings', auth, validate(signupSettingsSchema), async (ctx: AppContext) => {
    ctx.body = await service.updateSettings(authOf(ctx), ctx.input);
  });

  return router;
}
