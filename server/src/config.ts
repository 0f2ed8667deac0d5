import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseCorsOrigins } from './http/origin-policy';

/**
 * Every setting comes from the environment with a documented default (README, "Configuration").
 * Secrets that are unset are generated once and kept in DATA_DIR, except in production, where
 * the server refuses to start without them.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  PGLITE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  REDIS_URL: z.string().optional(),
  JWT_SECRET: z.string().min(16).optional(),
  JWT_REFRESH_SECRET: z.string().min(16).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 3600),
  PASSWORD_RESET_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  SEED_SUPERADMIN_EMAIL: z.string().email().default('superadmin@example.com'),
  SEED_PASSWORD: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Atende <no-reply@localhost>'),
  LOGIN_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(5),
  LOGIN_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
  /** Failed logins from one IP across every account, per window. */
  LOGIN_RATE_LIMIT_IP_MAX: z.coerce.number().int().positive().default(20),
  /** Failed logins of one account across every IP, per window. */
  LOGIN_RATE_LIMIT_ACCOUNT_MAX: z.coerce.number().int().positive().default(10),
  /** Leading zero bits of the login captcha's proof of work (shared/captcha.ts). */
  CAPTCHA_DIFFICULTY: z.coerce.number().int().min(0).max(24).default(12),
  CAPTCHA_TTL_SECONDS: z.coerce.number().int().positive().default(120),
  BODY_LIMIT: z.string().default('1mb'),
  /** Other origins allowed besides the server's own and the desktop app's (server/src/http/origin-policy.ts). */
  CORS_ORIGINS: z.string().default(''),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default('out/web'),
  SYNC_MAX_EVENTS: z.coerce.number().int().positive().default(1000),
  WABA_GRAPH_BASE_URL: z.string().url().default('https://graph.facebook.com'),
  TELEGRAM_API_BASE_URL: z.string().url().default('https://api.telegram.org'),
  /** Deadline of each Telegram Bot API call. */
  TELEGRAM_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** Instagram and Messenger (Graph API) origin; tests point it at a local fake. */
  META_GRAPH_BASE_URL: z.string().url().default('https://graph.facebook.com'),
  /** Notification hub (NotificaMe) API origin. */
  HUB_API_BASE_URL: z.string().url().default('https://hub.notificame.com.br'),
  /** Deadline of each call to a provider's HTTP API (Meta, hub, Evolution, Wuzapi, Meow). */
  CHANNEL_HTTP_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /**
   * Hosts (comma-separated, `host` or `host:port`) the chatbot's webhook, media and AI calls may
   * reach although they resolve to a private or loopback address; empty: none (SSRF guard).
   */
  CHATFLOW_HTTP_ALLOW_HOSTS: z.string().default(''),
  /**
   * Tests only: a module whose `makeWASocket` replaces Baileys' own (an injected socket that
   * emits Baileys' event shapes), for end-to-end tests without WhatsApp's servers.
   */
  BAILEYS_SOCKET_MODULE: z.string().optional(),
  /** Pause between two WhatsApp calls of a groups mass operation (WhatsApp bans accounts that change many groups at once). */
  GROUP_OPERATION_DELAY_MS: z.coerce.number().int().min(0).default(2_000),
  /**
   * Ed25519 public key (PEM; `\n` may stand for the line breaks) that every update package of
   * /atualizar must be signed with. Unset: every update is refused.
   */
  UPDATE_PUBLIC_KEY: z.string().optional(),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  pglitePort: number;
  redisUrl?: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  passwordResetTtlSeconds: number;
  seedSuperadminEmail: string;
  seedPassword?: string;
  smtpUrl?: string;
  mailFrom: string;
  loginRateLimitMax: number;
  loginRateLimitWindowMs: number;
  loginRateLimitIpMax: number;
  loginRateLimitAccountMax: number;
  captchaDifficulty: number;
  captchaTtlSeconds: number;
  bodyLimit: string;
  /** Origins allowed besides the server's own and `app://desktop`; `*` = any, without credentials. */
  corsOrigins: string[];
  /** Read the client IP from X-Forwarded-For (only behind a proxy that overwrites it). */
  trustProxy: boolean;
  logLevel: string;
  webDist: string;
  syncMaxEvents: number;
  /** WhatsApp Cloud API (Graph API) origin; tests point it at a local fake. */
  wabaGraphBaseUrl: string;
  telegramApiBaseUrl: string;
  telegramTimeoutMs: number;
  metaGraphBaseUrl: string;
  hubApiBaseUrl: string;
  channelHttpTimeoutMs: number;
  /** Private or loopback hosts the chatbot's outgoing calls may reach anyway (lowercase `host` or `host:port`). */
  chatflowHttpAllowHosts: string[];
  /** Tests only (BAILEYS_SOCKET_MODULE): path of a module exporting a replacement `makeWASocket`. */
  baileysSocketModule?: string;
  /** Pause between two WhatsApp calls of a groups mass operation. */
  groupOperationDelayMs: number;
  /** PEM of the Ed25519 key update packages are verified with; unset: updates are refused. */
  updatePublicKey?: string;
}

interface StoredSecrets {
  jwtSecret: string;
  jwtRefreshSecret: string;
}

function loadOrCreateSecrets(dataDir: string): StoredSecrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StoredSecrets;
  const secrets = {
    jwtSecret: randomBytes(32).toString('hex'),
    jwtRefreshSecret: randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.NODE_ENV === 'production' && (!e.JWT_SECRET || !e.JWT_REFRESH_SECRET)) {
    throw new Error('JWT_SECRET and JWT_REFRESH_SECRET are required when NODE_ENV=production');
  }
  const secrets =
    e.JWT_SECRET && e.JWT_REFRESH_SECRET
      ? { jwtSecret: e.JWT_SECRET, jwtRefreshSecret: e.JWT_REFRESH_SECRET }
      : loadOrCreateSecrets(dataDir);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    pglitePort: e.PGLITE_PORT,
    redisUrl: e.REDIS_URL || undefined,
    jwtSecret: e.JWT_SECRET ?? secrets.jwtSecret,
    jwtRefreshSecret: e.JWT_REFRESH_SECRET ?? secrets.jwtRefreshSecret,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    passwordResetTtlSeconds: e.PASSWORD_RESET_TTL_SECONDS,
    seedSuperadminEmail: e.SEED_SUPERADMIN_EMAIL,
    seedPassword: e.SEED_PASSWORD || undefined,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    loginRateLimitMax: e.LOGIN_RATE_LIMIT_MAX,
    loginRateLimitWindowMs: e.LOGIN_RATE_LIMIT_WINDOW_MS,
    loginRateLimitIpMax: e.LOGIN_RATE_LIMIT_IP_MAX,
    loginRateLimitAccountMax: e.LOGIN_RATE_LIMIT_ACCOUNT_MAX,
    captchaDifficulty: e.CAPTCHA_DIFFICULTY,
    captchaTtlSeconds: e.CAPTCHA_TTL_SECONDS,
    bodyLimit: e.BODY_LIMIT,
    trustProxy: e.TRUST_PROXY === 'true',
    corsOrigins: parseCorsOrigins(e.CORS_ORIGINS),
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST),
    syncMaxEvents: e.SYNC_MAX_EVENTS,
    wabaGraphBaseUrl: e.WABA_GRAPH_BASE_URL.replace(/\/+$/, ''),
    telegramApiBaseUrl: e.TELEGRAM_API_BASE_URL.replace(/\/+$/, ''),
    telegramTimeoutMs: e.TELEGRAM_TIMEOUT_MS,
    metaGraphBaseUrl: e.META_GRAPH_BASE_URL.replace(/\/+$/, ''),
    hubApiBaseUrl: e.HUB_API_BASE_URL.replace(/\/+$/, ''),
    channelHttpTimeoutMs: e.CHANNEL_HTTP_TIMEOUT_MS,
    chatflowHttpAllowHosts: e.CHATFLOW_HTTP_ALLOW_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    baileysSocketModule: e.BAILEYS_SOCKET_MODULE || undefined,
    groupOperationDelayMs: e.GROUP_OPERATION_DELAY_MS,
    updatePublicKey: e.UPDATE_PUBLIC_KEY?.trim() ? e.UPDATE_PUBLIC_KEY.replace(/\\n/g, '\n').trim() : undefined,
  };
}
