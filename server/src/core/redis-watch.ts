import type { Redis } from 'ioredis';
import type { Logger } from './logger';

/**
 * Every Redis client gets an error listener (an unhandled 'error' event would otherwise be
 * printed on every reconnection try): an outage is logged once when it starts and once when
 * Redis is back. ioredis keeps reconnecting by itself.
 */
export function watchRedis<T extends Redis>(client: T, logger: Logger | undefined, role: string): T {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger?.warn({ err, role }, 'Redis unreachable: requests and periodic work go on without it');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info({ role }, 'Redis is back');
  });
  return client;
}
