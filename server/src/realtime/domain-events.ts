import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../db/prepared';
import { paramsOf, runStatementParts, withParts, type StatementPart } from '../db/statement-part';
import type { DomainEventEnvelope } from '@shared/events';
import type { DomainEvent, EventAudience } from '../db/entities';

/** Receives committed events; the Socket.IO hub decides recipients (realtime/hub.ts). */
export interface EventPublisher {
  publish(event: DomainEvent): void;
}

export type Emit = (tenantId: number, name: string, payload: unknown, audience?: EventAudience) => Promise<void>;

export interface PendingEvent {
  name: string;
  payload: unknown;
  audience?: EventAudience;
}

/**
 * Records several events of one tenant in one statement, in order (high-volume writers: inbound
 * batches). `alongside`: writes of the same transaction that go in that statement too (one round
 * trip fewer; see db/statement-part.ts).
 */
export type EmitMany = (tenantId: number, events: readonly PendingEvent[], alongside?: readonly StatementPart[]) => Promise<void>;

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

  async transaction<T>(work: (tx: EntityManager, emit: Emit, emitMany: EmitMany) => Promise<T>): Promise<T> {
    const recorded: DomainEvent[] = [];
    const result = await this.dataSource.transaction(async (tx) => {
      const emit: Emit = async (tenantId, name, payload, audience = { scope: 'tenant' }) => {
        recorded.push(await recordEvent(tx, tenantId, name, payload, audience));
      };
      const emitMany: EmitMany = async (tenantId, events, alongside = []) => {
        if (events.length > 0) recorded.push(...(await recordEvents(tx, tenantId, events, alongside)));
        else await runStatementParts(tx, alongside);
      };
      return work(tx, emit, emitMany);
    });
    for (const event of recorded) this.publisher.publish(event);
    return result;
  }

  /**
   * Publishes events a caller recorded and committed by itself (one statement that writes and
   * records its event without a transaction; see OutboundDelivery.succeedAlone).
   */
  publishCommitted(events: readonly DomainEvent[]): void {
    for (const event of events) this.publisher.publish(event);
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
  const inserted: DomainEvent[] = await preparedQuery(
    tx,
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

/**
 * Several events of one tenant in one statement: one seq increment of n for the lot (the same
 * tenant row lock as recordEvent), the events numbered in the given order.
 */
export async function recordEvents(
  tx: EntityManager,
  tenantId: number,
  events: readonly PendingEvent[],
  alongside: readonly StatementPart[] = [],
): Promise<DomainEvent[]> {
  const params: unknown[] = [
    tenantId,
    events.length,
    events.map((e) => e.name),
    events.map((e) => JSON.stringify(e.payload ?? null)),
    events.map((e) => JSON.stringify(e.audience ?? { scope: 'tenant' })),
  ];
  const parts = withParts(alongside, paramsOf(params), 'w');
  // Only the generated columns come back: the payloads are large and already in hand.
  const inserted: { id: string; seq: string; createdAt: Date }[] = await preparedQuery(
    tx,
    `WITH ${[...parts, `next AS (
       UPDATE tenants SET "eventSeq" = "eventSeq" + $2 WHERE id = $1 RETURNING id, "eventSeq" - $2 AS base
     )`].join(', ')}
     INSERT INTO domain_events ("tenantId", seq, name, payload, audience)
     SELECT next.id, next.base + e.ord, e.name, e.payload, e.audience
       FROM next, unnest($3::varchar[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(name, payload, audience, ord)
     RETURNING id, seq, "createdAt"`,
    params,
  );
  if (inserted.length !== events.length) throw new Error(`recordEvents: tenant ${tenantId} does not exist`);
  const base = Math.min(...inserted.map((row) => Number(row.seq)));
  return inserted
    .map((row) => {
      const e = events[Number(row.seq) - base];
      // Payloads are plain JSON values (presenters' output), the same as their stored form.
      return { id: row.id, tenantId, seq: row.seq, name: e.name, payload: e.payload ?? null, audience: e.audience ?? { scope: 'tenant' as const }, createdAt: row.createdAt };
    })
    .sort((a, b) => Number(a.seq) - Number(b.seq));
}

/**
 * One event recorded in several tenants at once (platform-wide writes: a notification to chosen
 * tenants, a new white-label logo): each tenant takes its next seq, in one statement. `tenantIds`
 * null means every tenant. The tenant rows are locked in id order, as a writer of one tenant
 * locks its own row, so two such writers cannot deadlock each other. The caller publishes the
 * returned events after its commit (DomainEvents.publishCommitted).
 */
export async function recordEventInTenants(
  tx: EntityManager,
  tenantIds: readonly number[] | null,
  name: string,
  payload: unknown,
  audience: EventAudience,
): Promise<DomainEvent[]> {
  if (tenantIds !== null && tenantIds.length === 0) return [];
  return tx.query(
    `WITH locked AS (
       SELECT id FROM tenants WHERE $1::int[] IS NULL OR id = ANY($1::int[]) ORDER BY id FOR UPDATE
     ), next AS (
       UPDATE tenants t SET "eventSeq" = t."eventSeq" + 1 FROM locked WHERE t.id = locked.id RETURNING t.id, t."eventSeq"
     )
     INSERT INTO domain_events ("tenantId", seq, name, payload, audience)
     SELECT id, "eventSeq", $2::varchar, $3::jsonb, $4::jsonb FROM next ORDER BY id
     RETURNING id, "tenantId", seq, name, payload, audience, "createdAt"`,
    [tenantIds, name, JSON.stringify(payload ?? null), JSON.stringify(audience)],
  );
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
