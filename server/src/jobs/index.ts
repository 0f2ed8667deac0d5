import type { Logger } from '../core/logger';
import type { JobQueue } from './job-queue';
import { MemoryJobQueue } from './memory-queue';

export async function createJobQueue(opts: { redisUrl?: string; prefix?: string; logger?: Logger }): Promise<JobQueue> {
  if (opts.redisUrl) {
    const { BullJobQueue } = await import('./bull-queue');
    return new BullJobQueue(opts.redisUrl, { prefix: opts.prefix, logger: opts.logger });
  }
  return new MemoryJobQueue(opts.logger);
}
