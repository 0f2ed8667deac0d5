import type { DataSource, EntityManager } from 'typeorm';
import type { DomainEventEnvelope } from '@shared/events';
import type { DomainEvent, EventAudience } from '../db/entities';

/** Receives committed events; the Socket.IO hub decides recipients (realtime/hub.ts). */
export interface EventPublisher {
  publish(event: DomainEvent): void;
}

export type Emit = (tenantId: number, name: string, payload: unknown, audience?: EventAudience) => Promise<void>;

/**
 * Runs a write in one transaction together with the domain events it records. Each event takes
 * the tenant's next `seq` (a row lock on the tenant serialises writers of one tenant); events
 * are published only after the commit, so a socket never sees a change that was rolled back.
 */
export class DomainEvents {
  constructor(
    private readonly dataSource: DataSource,
    private publisher: EventPublisher,
  ) {}

  setPublisher(publisher: EventPublisher): void {
    this.publisher = publisher;
  }

  async transaction<T>(work: (tx: EntityManager, emit: Emit) => Promise<T>): Promise<T> {
    const recorded: DomainEvent[] = [];
    const result = await this.dataSource.transaction(async (tx) => {
      const emit: Emit = async (tenantId, name, payload, audience = { scope: 'tenant' }) => {
        recorded.push(await recordEvent(tx, tenantId, name, payload, audience));
      };
      return work(tx, emit);
    });
    for (const event of recorded) this.publisher.publish(event);
    return result;
  }

  /** Records and publishes a single event on its own (no other write). */
  async emit(tenantId: number, name: string, payload: unknown, audience: EventAudience = { scope: 'tenant' }): Promise<void> {
    await this.transaction((_tx, emit) => emit(tenantId, name, payload, audience));
  }
}

/**
 * Takes the tenant's next seq and records the event in one statement. (A bare UPDATE ...
 * RETURNING would not do: TypeORM answers UPDATE with [rows, affected], not the rows.)
 */
export async function recordEvent(
  tx: EntityManager,
  tenantId: number,
  name: string,
  payload: unknown,
  audience: EventAudience,
): Promise<DomainEvent> {
  const inserted: DomainEvent[] = await tx.query(
    `WITH next AS (
       UPDATE tenants SET "eventSeq" = "eventSeq" + 1 WHERE id = $1 RETURNING id, "eventSeq"
     )
     INSERT INTO domain_events ("tenantId", seq, name, payload, audience)
     SELECT id, "eventSeq", $2::varchar, $3::jsonb, $4::jsonb FROM next
     RETURNING id, "tenantId", seq, name, payload, audience, "createdAt"`,
    [tenantId, name, JSON.stringify(payload ?? null), JSON.stringify(audience)],
  );
  if (!inserted[0]) throw new Error(`recordEvent: tenant ${tenantId} does not exist`);
  return inserted[0];
}

export function toEnvelope(event: DomainEvent): DomainEventEnvelope {
  return {
    seq: Number(event.seq),
    tenantId: event.tenantId,
    name: event.name,
    payload: event.payload,
    createdAt: new Date(event.createdAt).toISOString(),
  };
}
