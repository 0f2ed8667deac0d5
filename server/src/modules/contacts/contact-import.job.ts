import type { AppDeps } from '../../deps';
import { CONTACT_IMPORT_JOB, CONTACT_IMPORT_SWEEP_JOB, type ContactImportService } from './contact-import.service';

/** How often queued or stalled imports are looked for (both job drivers take an interval). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Thin job wiring: the import job runs ContactImportService.run; a periodic sweep, and one right
 * at start, requeue imports that a restart or a dead worker left behind (the contact_imports
 * row, not the queue, is what survives).
 */
export function registerContactImportJobs(deps: Pick<AppDeps, 'jobs' | 'periodic' | 'logger'>, imports: ContactImportService): void {
  deps.jobs.process<{ importId: string }>(CONTACT_IMPORT_JOB, (data) => imports.run(data.importId));
  deps.periodic.register({
    name: CONTACT_IMPORT_SWEEP_JOB,
    intervalMs: SWEEP_INTERVAL_MS,
    run: async () => {
      const requeued = await imports.sweep();
      if (requeued > 0) deps.logger.info({ requeued }, 'requeued pending contact imports');
    },
  });
}
