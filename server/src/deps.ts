import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import type { ChannelRegistry } from './modules/messaging/channel-registry';
import type { Config } from './config';
import type { Clock } from './core/clock';
import type { Logger } from './core/logger';
import type { Mailer } from './core/mailer';
import type { JobQueue } from './jobs/job-queue';
import type { PeriodicScheduler } from './jobs/periodic';
import type { DomainEvents } from './realtime/domain-events';
import type { RateLimiter } from './http/rate-limit';
import type { SessionTerminator } from './realtime/session-terminator';

/** Everything the app is built from. Tests build it with fakes of the outside world only. */
export interface AppDeps {
  config: Config;
  dataSource: DataSource;
  logger: Logger;
  clock: Clock;
  events: DomainEvents;
  jobs: JobQueue;
  /** Sweeps and other periodic work, claimed through PostgreSQL (never lost with Redis). */
  periodic: PeriodicScheduler;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** Ends the live sockets of revoked sessions (logout, refresh replay, password change). */
  sessions: SessionTerminator;
  /** Channel adapters (one per channel), session states and the inbound pipeline. */
  channels: ChannelRegistry;
  /** Present when REDIS_URL is set. */
  redis?: Redis;
  /** Namespace of this deployment's Redis keys and channels (Bull, rate limits, Socket.IO). */
  keyPrefix?: string;
}
