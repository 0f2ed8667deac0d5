import { createHash, createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InternalDataView } from '@shared/schemas/platform-ops';
import type { Config } from '../../config';
import type { AppDeps } from '../../deps';

/** The project's root (package.json, node_modules), from this file's place in server/src/modules/platform-ops. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../../..');

/** The dependencies whose versions the internal-data screen shows (the ones a support call asks about). */
const MAIN_DEPENDENCIES = [
  'koa',
  '@koa/router',
  'typeorm',
  'pg',
  '@electric-sql/pglite',
  'bull',
  'ioredis',
  'socket.io',
  'zod',
  'jsonwebtoken',
  'nodemailer',
  'pino',
  '@whiskeysockets/baileys',
] as const;

/**
 * The environment as the server runs it (its Config, so defaults show too), by an allow-list of
 * names. A secret, or a URL that may carry a password, shows only whether it is set: its value
 * never leaves the server (LESSONS item 7).
 */
function environment(config: Config): InternalDataView['environment'] {
  const plain = (name: string, value: string | number | boolean | undefined) => ({
    name,
    set: value !== undefined && value !== '',
    secret: false,
    value: value === undefined ? null : String(value),
  });
  const secret = (name: string, value: string | undefined) => ({ name, set: Boolean(value), secret: true, value: null });
  return [
    plain('NODE_ENV', config.env),
    plain('HOST', config.host),
    plain('PORT', config.port),
    plain('PUBLIC_URL', config.publicUrl),
    plain('DATA_DIR', config.dataDir),
    plain('WEB_DIST', config.webDist),
    plain('LOG_LEVEL', config.logLevel),
    plain('TRUST_PROXY', config.trustProxy),
    plain('CORS_ORIGINS', config.corsOrigins.join(',')),
    plain('BODY_LIMIT', config.bodyLimit),
    plain('ACCESS_TOKEN_TTL_SECONDS', config.accessTokenTtlSeconds),
    plain('REFRESH_TOKEN_TTL_SECONDS', config.refreshTokenTtlSeconds),
    plain('MAIL_FROM', config.mailFrom),
    plain('WABA_GRAPH_BASE_URL', config.wabaGraphBaseUrl),
    plain('META_GRAPH_BASE_URL', config.metaGraphBaseUrl),
    plain('TELEGRAM_API_BASE_URL', config.telegramApiBaseUrl),
    plain('HUB_API_BASE_URL', config.hubApiBaseUrl),
    secret('DATABASE_URL', config.databaseUrl),
    secret('REDIS_URL', config.redisUrl),
    secret('JWT_SECRET', config.jwtSecret),
    secret('JWT_REFRESH_SECRET', config.jwtRefreshSecret),
    secret('SMTP_URL', config.smtpUrl),
    secret('SEED_PASSWORD', config.seedPassword),
  ];
}

/** SHA-256 of the key's DER form, as `ssh-keygen -l` prints keys: who holds the private key can be checked. */
export function publicKeyFingerprint(pem: string | undefined): string | null {
  if (!pem) return null;
  try {
    const der = createPublicKey(pem).export({ type: 'spki', format: 'der' });
    return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
  } catch {
    return 'inválida';
  }
}

async function readJson(file: string): Promise<Record<string, any> | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/** /tenantsPk: versions and environment of the running backend, without any secret. */
export class InternalDataService {
  constructor(private readonly deps: Pick<AppDeps, 'config' | 'dataSource' | 'jobs'>) {}

  async read(): Promise<InternalDataView> {
    const { config, dataSource, jobs } = this.deps;
    const pkg = (await readJson(path.join(PROJECT_ROOT, 'package.json'))) ?? {};
    const declared: Record<string, string> = { ...pkg.devDependencies, ...pkg.dependencies };
    const dependencies = await Promise.all(
      MAIN_DEPENDENCIES.map(async (name) => ({
        name,
        declared: declared[name] ?? '',
        installed:
          ((await readJson(path.join(PROJECT_ROOT, 'node_modules', name, 'package.json')))?.version as string | undefined) ??
          null,
      })),
    );
    const [{ server_version: dbVersion }] = await dataSource.query(`SHOW server_version`);
    const memory = process.memoryUsage();
    return {
      app: { name: String(pkg.name ?? ''), version: String(pkg.version ?? '') },
      runtime: {
        node: process.version,
        platform: process.platform,
        arch: process.arch,
        uptimeSeconds: Math.round(process.uptime()),
        pid: process.pid,
      },
      memory: {
        rssBytes: memory.rss,
        heapUsedBytes: memory.heapUsed,
        heapTotalBytes: memory.heapTotal,
        systemTotalBytes: os.totalmem(),
        systemFreeBytes: os.freemem(),
      },
      database: { kind: config.databaseUrl ? 'PostgreSQL' : 'PGlite', version: String(dbVersion) },
      redis: { enabled: Boolean(config.redisUrl) },
      queueDriver: jobs.driver,
      updatePublicKey: { configured: Boolean(config.updatePublicKey), fingerprint: publicKeyFingerprint(config.updatePublicKey) },
      dependencies,
      environment: environment(config),
    };
  }
}
