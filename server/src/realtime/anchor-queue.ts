import type { TicketDto } from '@shared/schemas/tickets';

export interface AnchorJob {
  /** The ticket this job's emits carry whole (a new message's), or null. */
  ticketId: number | null;
  /** Emits the job's anchor events; `ticket` is the ticket read for it (null when none or not found). */
  run(ticket: TicketDto | null): void;
}

/**
 * The anchor socket events of each tenant, in the order of its events (anchor-events.ts). Some
 * carry their ticket whole, read after the commit. One read per event ran behind under load: at
 * 400 inbound messages a second the reads of one tenant, one after the other, fell seconds
 * behind and went on long after the burst, holding a connection and a core. Here the events
 * that wait while a read runs form the next batch, and a batch reads all its tickets in one
 * query: the queue never grows past one batch per read.
 */
export class AnchorQueue {
  private readonly queues = new Map<number, AnchorJob[]>();
  private readonly runs = new Map<number, Promise<void>>();

  constructor(
    private readonly readTickets: (tenantId: number, ids: number[]) => Promise<Map<number, TicketDto>>,
    private readonly onError: (err: unknown, tenantId: number) => void,
  ) {}

  enqueue(tenantId: number, job: AnchorJob): void {
    const queue = this.queues.get(tenantId);
    if (queue) queue.push(job);
    else this.queues.set(tenantId, [job]);
    if (!this.runs.has(tenantId)) {
      // From a microtask: the events of one commit, published in one loop, make one batch.
      const run = Promise.resolve()
        .then(() => this.drain(tenantId))
        .finally(() => this.runs.delete(tenantId));
      this.runs.set(tenantId, run);
    }
  }

  /** Resolves when every queued job has run (shutdown). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs.values()]);
  }

  private async drain(tenantId: number): Promise<void> {
    for (;;) {
      const jobs = this.queues.get(tenantId);
      this.queues.delete(tenantId);
      if (!jobs || jobs.length === 0) return;
      const ids = [...new Set(jobs.map((j) => j.ticketId).filter((id): id is number => id !== null))];
      let tickets = new Map<number, TicketDto>();
      if (ids.length > 0) {
        try {
          tickets = await this.readTickets(tenantId, ids);
        } catch (err) {
          // The events still leave, with the ticket's facts the event carries (anchor-events.ts stubOf).
          this.onError(err, tenantId);
        }
      }
      for (const job of jobs) {
        try {
          job.run(job.ticketId === null ? null : (tickets.get(job.ticketId) ?? null));
        } catch (err) {
          this.onError(err, tenantId);
        }
      }
    }
  }
}
