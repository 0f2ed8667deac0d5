import type { AppDeps } from '../../deps';
import type { MessageBirthdayService } from './message-birthday.service';
import type { MessageScheduleService } from './message-schedule.service';
import { CHANNEL_PROBE_INTERVAL_MS, CHANNEL_PROBE_JOB } from './channel-reachability';
import {
  DELIVER_JOB,
  type DeliverJobData,
  DELIVER_JOB_CONCURRENCY,
  OUTBOUND_SWEEP_INTERVAL_MS,
  OUTBOUND_SWEEP_JOB,
  type OutboundDelivery,
} from './outbound-delivery';

export const BIRTHDAY_JOB = 'messages.birthdays';
/** Birthday messages go out at their channel's hour; checked a few times per hour (idempotent). */
const BIRTHDAY_INTERVAL_MS = 10 * 60_000;

/**
 * Thin job wiring (the rows, not the queue, are what survives a restart):
 * - `messages.deliver` {messageId}: send one message now (enqueued after each write, and with a
 *   delay for each retry); DELIVER_JOB_CONCURRENCY at once per process, at most one per channel
 *   (the delivery's lanes);
 * - `messages.outbound-sweep`: scheduled messages that are due become pending, then every due
 *   pending message is sent; every OUTBOUND_SWEEP_INTERVAL_MS and once at start, so a restart
 *   or a lost job delays a message by seconds at most;
 * - `messages.birthdays`: birthday messages at each channel's hour;
 * - `channels.provider-probe`: channels marked unreachable ask their provider whether it is back.
 */
export function registerMessageJobs(
  deps: Pick<AppDeps, 'jobs' | 'periodic' | 'logger'>,
  services: { delivery: OutboundDelivery; schedules: MessageScheduleService; birthdays: MessageBirthdayService },
): void {
  deps.jobs.process<DeliverJobData>(
    DELIVER_JOB,
    async (data) => {
      const lane =
        data.ticketId !== undefined
          ? { ticketId: Number(data.ticketId), channelId: data.channelId == null ? null : Number(data.channelId) }
          : undefined;
      await services.delivery.deliver(Number(data.messageId), { lane });
    },
    { concurrency: DELIVER_JOB_CONCURRENCY },
  );
  deps.periodic.register({
    name: CHANNEL_PROBE_JOB,
    intervalMs: CHANNEL_PROBE_INTERVAL_MS,
    run: async () => {
      await services.delivery.reachability.probe();
    },
  });
  deps.periodic.register({
    name: OUTBOUND_SWEEP_JOB,
    intervalMs: OUTBOUND_SWEEP_INTERVAL_MS,
    run: async () => {
      await services.schedules.promoteDue();
      await services.delivery.sweep();
    },
  });
  deps.periodic.register({
    name: BIRTHDAY_JOB,
    intervalMs: BIRTHDAY_INTERVAL_MS,
    run: async () => {
      const sent = await services.birthdays.runDue();
      if (sent > 0) deps.logger.info({ sent }, 'birthday messages sent');
    },
  });
}
