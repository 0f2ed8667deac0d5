import type { AppDeps } from '../../deps';
import { CONTACT_IMPORT_JOB, CONTACT_IMPORT_SWEEP_JOB, type ContactImportService } from './contact-import.service';

/** How often queued or stalled imports are looked for (both job drivers take an interval). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Thin job wiring: the import job runs ContactImportService.run; a periodic sweep, and one right
 * at start, requeue imports that a restart or a dead worker left behind (the contact_imports
 * row, not the queue, is what survives).
 */
export function registerContactImportJobs(deps: Pick<AppDeps, 'jobs' | 'logger'>, imports: ContactImportService): void {
  deps.jobs.process<{ importId: string }>(CONTACT_IMPORT_JOB, (data) => imports.run(data.importId));
  deps.jobs.process(CONTACT_IMPORT_SWEEP_JOB, async () => {
    const requeued = await imports.sweep();
    if (requeued > 0) deps.logger.info({ requeued }, 'requeued pending contact imports');
  });
  void (async () => {
    await deps.jobs.every(CONTACT_IMPORT_SWEEP_JOB, SWEEP_INTERVAL_MS);
    await deps.jobs.enqueue(CONTACT_IMPORT_SWEEP_JOB, {}, { jobId: 'contact-import-sweep:start' });
  })().catch((err) => deps.logger.warn({ err }, 'could not schedule the contact import sweep'));
}
