import { QUEUE_RESTART_MAX } from '@shared/limits';
import type { FailedJobView, JobQueueBoardView } from '@shared/schemas/platform-ops';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';

/** Failed jobs listed per queue on the screen. */
export const FAILED_JOBS_LISTED = 50;

/**
 * The job-queue board (/tenantsQueue) over the JobQueue of this process, for either driver.
 * Restarts are counted per backend run (spec section 9: at most QUEUE_RESTART_MAX without
 * restarting the backend); the counter lives with the app, so a new process starts from zero.
 */
export class JobBoardService {
  private restarts = 0;

  constructor(private readonly deps: Pick<AppDeps, 'jobs' | 'logger'>) {}

  async board(): Promise<JobQueueBoardView> {
    const { jobs } = this.deps;
    const queues = await Promise.all(jobs.names().map(async (name) => ({ name, ...(await jobs.counts(name)) })));
    return { driver: jobs.driver, queues, restartsLeft: this.restartsLeft(), generatedAt: new Date().toISOString() };
  }

  async failed(name: string): Promise<FailedJobView[]> {
    return this.deps.jobs.failed(this.known(name), FAILED_JOBS_LISTED);
  }

  async retry(name: string, jobId: string): Promise<void> {
    if (!(await this.deps.jobs.retry(this.known(name), jobId))) throw new AppError('ERR_NO_FAILED_JOB_FOUND');
  }

  async clean(name: string, state: 'completed' | 'failed'): Promise<{ removed: number }> {
    return { removed: await this.deps.jobs.clean(this.known(name), state) };
  }

  async restart(name: string, by: { userId: number }): Promise<{ restartsLeft: number }> {
    this.known(name);
    if (this.restarts >= QUEUE_RESTART_MAX) throw new AppError('ERR_QUEUE_RESTART_LIMIT');
    // Counted before the restart runs: a restart that fails halfway still used one of the five.
    this.restarts += 1;
    await this.deps.jobs.restart(name);
    this.deps.logger.warn(
      { queue: name, userId: by.userId, restarts: this.restarts },
      'job queue restarted by the super administrator',
    );
    return { restartsLeft: this.restartsLeft() };
  }

  private restartsLeft(): number {
    return Math.max(0, QUEUE_RESTART_MAX - this.restarts);
  }

  /** Only names this process knows: a typo never creates an empty Bull queue in Redis. */
  private known(name: string): string {
    if (!this.deps.jobs.names().includes(name)) throw new AppError('ERR_NO_JOB_QUEUE_FOUND');
    return name;
  }
}
