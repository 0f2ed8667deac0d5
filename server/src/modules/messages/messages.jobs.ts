import type { AppDeps } from '../../deps';
import type { MessageBirthdayService } from './message-birthday.service';
import type { MessageScheduleService } from './message-schedule.service';
import { DELIVER_JOB, OUTBOUND_SWEEP_INTERVAL_MS, OUTBOUND_SWEEP_JOB, type OutboundDelivery } from './outbound-delivery';

export const BIRTHDAY_JOB = 'messages.birthdays';
/** Birthday messages go out at their channel's hour; checked a few times per hour (idempotent). */
const BIRTHDAY_INTERVAL_MS = 10 * 60_000;

/**
 * Thin job wiring (the rows, not the queue, are what survives a restart):
 * - `messages.deliver` {messageId}: send one message now (enqueued after each write, and with a
 *   delay for each retry);
 * - `messages.outbound-sweep`: scheduled messages that are due become pending, then every due
 *   pending message is sent; every OUTBOUND_SWEEP_INTERVAL_MS and once at start, so a restart
 *   or a lost job delays a message by seconds at most;
 * - `messages.birthdays`: birthday messages at each channel's hour.
 */
export function registerMessageJobs(
  deps: Pick<AppDeps, 'jobs' | 'logger'>,
  services: { delivery: OutboundDelivery; schedules: MessageScheduleService; birthdays: MessageBirthdayService },
): void {
  deps.jobs.process<{ messageId: number }>(DELIVER_JOB, async (data) => {
    await services.delivery.deliver(Number(data.messageId));
  });
  deps.jobs.process(OUTBOUND_SWEEP_JOB, async () => {
    await services.schedules.promoteDue();
    await services.delivery.sweep();
  });
  deps.jobs.process(BIRTHDAY_JOB, async () => {
    const sent = await services.birthdays.runDue();
    if (sent > 0) deps.logger.info({ sent }, 'birthday messages sent');
  });
  void (async () => {
    await deps.jobs.every(OUTBOUND_SWEEP_JOB, OUTBOUND_SWEEP_INTERVAL_MS);
    await deps.jobs.every(BIRTHDAY_JOB, BIRTHDAY_INTERVAL_MS);
    await deps.jobs.enqueue(OUTBOUND_SWEEP_JOB, {}, { jobId: 'messages-sweep:start' });
  })().catch((err) => deps.logger.warn({ err }, 'could not schedule the message jobs'));
}
