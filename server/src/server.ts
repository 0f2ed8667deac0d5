import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ERROR_CODES } from '@shared/errors';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type Koa from 'koa';
import { createApp } from './app';
import type { AppState } from './http/context';
import { ChannelRegistry } from './modules/messaging/channel-registry';
import type { Config } from './config';
import { systemClock, type Clock } from './core/clock';
import { createLogger, type Logger } from './core/logger';
import type { Mailer } from './core/mailer';
import { enablePreparedStatements } from './db/prepared';
import { createDataSource } from './db/data-source';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded-postgres';
import type { AppDeps } from './deps';
import { MemoryRateLimiter, RedisRateLimiter } from './http/rate-limit';
import { createJobQueue } from './jobs';
import { PeriodicScheduler } from './jobs/periodic';
import { watchRedis } from './core/redis-watch';
import { createMailer } from './core/smtp-mailer';
import { createPlatformMailer } from './modules/platform-mail/platform-mailer';
import { DomainEvents } from './realtime/domain-events';
import { scheduleEventPruning } from './realtime/event-retention';
import { createRealtimeHub, type RealtimeHub } from './realtime/hub';
import { corsStartWarning } from './http/origin-policy';
import { seedDatabase } from './seed/seed';
import { SocketSessionTerminator } from './realtime/session-terminator';

export interface StartOptions {
  /** Embedded PostgreSQL in memory instead of DATA_DIR (tests). */
  inMemoryDatabase?: boolean;
  /** Skip the first-start seed (tests build their own tenants). */
  seed?: boolean;
  logger?: Logger;
  clock?: Clock;
  mailer?: Mailer;
  /** Prefix for Bull, rate-limit and Socket.IO keys in Redis, so parallel test servers do not meet. */
  redisPrefix?: string;
  /**
   * Resume the live sessions of every tenant's channels on start (default true). Test servers
   * share one database: a server starting in one test file must not take over the sessions
   * another file's test is driving.
   */
  resumeSessions?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  http: HttpServer;
  hub: RealtimeHub;
  /** The Koa app: tests read its routers (the route fuzz test enumerates every route from them). */
  app: Koa<AppState>;
  close(): Promise<void>;
}

/** Starts everything: database (embedded or DATABASE_URL), migrations, seed, jobs, HTTP, sockets. */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  let embedded: EmbeddedPostgres | undefined;
  let dbUrl = config.databaseUrl;
  if (!dbUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: opts.inMemoryDatabase ? undefined : `${config.dataDir}/pg`,
      port: config.pglitePort,
    });
    dbUrl = embedded.url;
  }
  const dataSource: DataSource = createDataSource({ url: dbUrl, maxConnections: embedded ? 1 : 10, embedded: Boolean(embedded) });
  await dataSource.initialize();
  if (!embedded) enablePreparedStatements(dataSource);
  await dataSource.runMigrations({ transaction: 'each' });
  if (opts.seed !== false) await seedDatabase(dataSource, config, logger);

  const redis = config.redisUrl ? watchRedis(new Redis(config.redisUrl, { maxRetriesPerRequest: null }), logger, 'rate limits') : undefined;
  const prefix = opts.redisPrefix ?? 'atende';
  const jobs = await createJobQueue({ redisUrl: config.redisUrl, prefix, logger });
  const periodic = new PeriodicScheduler({ dataSource, logger }, prefix);
  const events = new DomainEvents(dataSource, { publish: () => undefined });
  const sessions = new SocketSessionTerminator();
  const clock = opts.clock ?? systemClock;
  const channels = new ChannelRegistry({ dataSource, events, logger, config, clock });
  const deps: AppDeps = {
    sessions,
    channels,
    config,
    dataSource,
    logger,
    clock,
    events,
    jobs,
    periodic,
    // The super administrator's stored SMTP settings, else SMTP_URL (read at each send: no restart).
    mailer: opts.mailer ?? createPlatformMailer(dataSource, createMailer(config, logger)),
    rateLimiter: redis ? new RedisRateLimiter(redis, `${prefix}:rl:`) : new MemoryRateLimiter(),
    redis,
    keyPrefix: prefix,
  };
  scheduleEventPruning(deps);
  const corsWarning = corsStartWarning(config.corsOrigins);
  if (corsWarning) logger.warn(corsWarning);
  const app = createApp(deps);
  const http = createServer(app.callback());
  http.on('clientError', answerClientError);
  const hub = createRealtimeHub(http, deps);
  events.setPublisher(hub);
  sessions.bind(hub.io);

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  // Sessions that hold a live connection (QR-code channels) come back after a restart.
  const resumed = opts.resumeSessions === false ? 0 : await channels.resumeSessions();
  if (resumed > 0) logger.info({ resumed }, 'channel sessions resuming');
  periodic.start();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await hub.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      // Inbound media downloads and hooks in flight finish before the database goes away.
      await channels.close();
      await periodic.stop();
      await jobs.close();
      await dataSource.destroy();
      if (redis) await redis.quit().catch(() => undefined);
      if (embedded) await embedded.stop();
    })());

  return { url: `http://localhost:${port}`, port, deps, http, hub, app, close };
}

/**
 * Requests Node's HTTP parser refuses before Koa sees them (a URL or headers over the 16 KB limit,
 * a malformed request line) still get the error body every client reads: `{ error, message }`.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Parser errors only (HPE_*); a reset or timeout has nobody left to answer.
  if (!socket.writable || !err.code?.startsWith('HPE_')) {
    socket.destroy(err);
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const code = tooLarge ? 'ERR_HEADERS_TOO_LARGE' : 'ERR_BAD_REQUEST';
  const body = JSON.stringify({ error: code, message: ERROR_CODES[code].message });
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
