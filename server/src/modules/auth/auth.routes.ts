import Router from '@koa/router';
import type { Context } from 'koa';
import {
  loginSchema,
  passwordResetRequestSchema,
  refreshTokenSchema,
  resetPasswordSchema,
  type AuthMessageResponse,
  type LoginInput,
  type PasswordResetRequestInput,
  type RefreshTokenInput,
  type ResetPasswordInput,
} from '@shared/schemas/auth';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { attemptLimit } from './auth.rate-limit';
import { AuthService, type IssuedRefreshToken } from './auth.service';
import { CaptchaService } from './captcha.service';
import { requireAuth } from './require-auth';

/** httpOnly cookie holding the refresh token; sent back only to /auth/* (refresh, logout). */
export const REFRESH_COOKIE = 'jrt';
const REFRESH_COOKIE_PATH = '/auth';

export const PASSWORD_RESET_REQUESTED_MESSAGE = 'Se o e-mail estiver cadastrado, você receberá um link para redefinir a senha.';
export const PASSWORD_RESET_DONE_MESSAGE = 'Senha redefinida com sucesso!';

function setRefreshCookie(ctx: Context, refresh: IssuedRefreshToken): void {
  ctx.cookies.set(REFRESH_COOKIE, refresh.value, {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    // Behind a TLS proxy `ctx.secure` follows X-Forwarded-Proto (the app trusts its proxy).
    secure: ctx.secure,
    maxAge: Math.max(0, refresh.expiresAt.getTime() - Date.now()),
    overwrite: true,
  });
}

function clearRefreshCookie(ctx: Context): void {
  ctx.cookies.set(REFRESH_COOKIE, null, {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    secure: ctx.secure,
    overwrite: true,
  });
}

/**
 * Spec section 7, "Authentication and account". Paths written with a trailing slash in the spec
 * answer with and without it.
 */
export function authRoutes(deps: AppDeps): Router {
  const router = new Router();
  const service = new AuthService(deps);
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const captcha = new CaptchaService(deps);
  const { loginRateLimitMax, loginRateLimitIpMax, loginRateLimitAccountMax, loginRateLimitWindowMs } = deps.config;
  const loginLimit = attemptLimit({
    limiter: deps.rateLimiter,
    name: 'login',
    windowMs: loginRateLimitWindowMs,
    counters: [
      { scope: 'email+ip', max: loginRateLimitMax, onSuccess: 'reset' },
      // One IP trying a password across many accounts, and many IPs trying one account.
      { scope: 'ip', max: loginRateLimitIpMax, onSuccess: 'undo' },
      { scope: 'email', max: loginRateLimitAccountMax, onSuccess: 'undo' },
    ],
  });
  const passwordResetLimit = attemptLimit({
    limiter: deps.rateLimiter,
    name: 'password-reset',
    windowMs: loginRateLimitWindowMs,
    counters: [{ scope: 'email+ip', max: loginRateLimitMax, onSuccess: 'keep' }],
  });

  // A fresh signed, single-use challenge for the login's slider captcha (shared/captcha.ts).
  router.get(['/auth/captcha', '/auth/captcha/'], async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = captcha.issue();
  });

  router.post(['/auth/login/', '/auth/login'], loginLimit, validate(loginSchema), async (ctx: AppContext) => {
    const input = ctx.input as LoginInput;
    // Before the password is looked at: no answer, no password check (and no bcrypt work).
    await captcha.verify(input.captchaToken, input.captchaSolution);
    const result = await service.login({
      email: input.email,
      password: input.password,
      userAgent: ctx.get('user-agent') || null,
      ip: ctx.ip || null,
    });
    setRefreshCookie(ctx, result.refresh);
    ctx.body = result.body;
  });

  router.post('/auth/refresh_token', validate(refreshTokenSchema), async (ctx: AppContext) => {
    const input = ctx.input as RefreshTokenInput;
    try {
      const result = await service.refresh({ refreshToken: input.refreshToken ?? ctx.cookies.get(REFRESH_COOKIE) });
      setRefreshCookie(ctx, result.refresh);
      ctx.body = result.body;
    } catch (err) {
      if (err instanceof AppError) clearRefreshCookie(ctx);
      throw err;
    }
  });

  router.post(['/auth/logout/', '/auth/logout'], auth, async (ctx: AppContext) => {
    await service.logout(authOf(ctx));
    clearRefreshCookie(ctx);
    ctx.status = 204;
  });

  router.post(
    '/password-reset',
    passwordResetLimit,
    validate(passwordResetRequestSchema),
    async (ctx: AppContext) => {
      await service.requestPasswordReset(ctx.input as PasswordResetRequestInput);
      ctx.body = { message: PASSWORD_RESET_REQUESTED_MESSAGE } satisfies AuthMessageResponse;
    },
  );

  router.post('/reset-password', validate(resetPasswordSchema), async (ctx: AppContext) => {
    await service.resetPassword(ctx.input as ResetPasswordInput);
    ctx.body = { message: PASSWORD_RESET_DONE_MESSAGE } satisfies AuthMessageResponse;
  });

  return router;
}
