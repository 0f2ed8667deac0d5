import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type { ContactEventPayload } from '@shared/schemas/contacts';
import type { MessageEventPayload, MessageReaction } from '@shared/schemas/messages';
import type { TicketEventPayload } from '@shared/schemas/tickets';
import { normalizeContactNumber } from '@shared/validation/contact-number';
import type { AppDeps } from '../../../deps';
import type { PendingEvent } from '../../../realtime/domain-events';
import { presentContact } from '../../contacts/contacts.presenter';
import { loadContact } from '../../contacts/contacts.service';
import { emitMessages } from '../../messages/message-events';
import { lastMessagePreview, loadTicket } from '../../messages/message-ticket';
import { presentMessage } from '../../messages/messages.presenter';
import { returnedRows, selectMessagesByIds } from '../../messages/messages.query';
import { recordInboundMessages } from '../../tickets/ticket-metrics';
import { moveOpenedTickets, upsertActiveTickets } from '../../tickets/ticket-upsert';
import { TICKET_SELECT, audienceFactsOf, presentTicket, type TicketRow } from '../../tickets/tickets.presenter';
import { ACK_BY_STATUS, type ChannelType, type GroupEvent, type IdentityKind, type InboundMessage, type StatusUpdate } from '../../../channels/channel-adapter';
import type { InboundPort, InboundResult } from '../../../channels/channel-port';
import {
  InboundHooks,
  type InboundEvent,
  type InboundHookRegistration,
  type OpeningTicket,
  type TicketOpening,
  type TicketOpeningHook,
} from './inbound-hooks';
import { InboundMediaStore } from './inbound-media';

type PipelineDeps = Pick<AppDeps, 'dataSource' | 'events' | 'logger' | 'config'>;

export type { InboundResult } from '../../../channels/channel-port';

/** Contact columns that also hold a provider id (searchable on the contacts screen). */
const CONTACT_COLUMN_BY_KIND: Partial<Record<IdentityKind, string>> = {
  telegram: 'telegramId',
  instagram: 'instagramId',
  messenger: 'messengerId',
  hub: 'hubWhatsappId',
};

/** Largest batch of one tenant's messages (or statuses) written in one transaction. */
export const INBOUND_BATCH_MAX = 100;
/**
 * Batches of one tenant in flight at once. One: a second batch running beside the first could
 * commit a contact's later message (or a message's later status) before the earlier one, and
 * the queue behind a running batch is what makes the next batch big under load.
 */
const BATCHES_IN_FLIGHT = 1;
/** Tries of a batch that lost a deadlock or serialization race (the database undid it whole). */
const BATCH_TRIES = 3;
/** Concurrent media downloads per process; more wait their turn. */
const MEDIA_CONCURRENCY = 4;

type Item = { kind: 'message'; message: InboundMessage } | { kind: 'status'; status: StatusUpdate };

interface Entry {
  item: Item;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface TenantQueue {
  entries: Entry[];
  running: number;
}

interface LookupRow {
  ord: number;
  channelFound: boolean;
  channelQueueId: number | null;
  channelType: ChannelType | null;
  duplicate: boolean;
  contactId: number | null;
  hasIdentity: boolean;
}

interface ContactRef {
  id: number;
  created: boolean;
}

interface Prepared {
  message: InboundMessage;
  phone: string | null;
  identityKey: string;
  lookup: LookupRow;
  contact?: ContactRef;
  ticketKey?: string;
}

const isRetryable = (err: unknown): boolean => {
  const e = err as { code?: string; driverError?: { code?: string } };
  const code = e?.driverError?.code ?? e?.code;
  return code === '40P01' || code === '40001';
};

/** A row of message_status_early as taken out of it (DELETE ... RETURNING). */
export interface EarlyStatusRow {
  tenantId: number;
  whatsappId: number;
  messageId: string;
  status: StatusUpdate['status'];
  error: string | null;
}

/**
 * Inbound pipeline: every provider's normalised messages end here (ARCHITECTURE: Channels,
 * Integrity over luck). Per message:
 *   contact by identity (tenant, kind, external id), else by normalised number, else created
 *   (the identity recorded either way) -> the one active ticket (upsertActiveTickets, the batch
 *   form of upsertActiveTicket on the one-active-ticket index) -> the
 *   message, unique on (channel, provider message id) -> ticket lastMessage / unread / answered
 *   -> ticket:create or ticket:update and appMessage:create to the ticket's audience,
 * all of a message committed together; a duplicate delivery writes and emits nothing. After the
 * commit, in the background and in order per ticket: the media download, then the hooks.
 *
 * Why batches: every write of a tenant takes the tenant row lock to number its events and holds
 * it until COMMIT (a WAL flush, milliseconds), so one message per transaction caps a tenant at a
 * few hundred messages per second whatever the hardware. Messages (and statuses) of one tenant
 * that arrive while a batch is being written queue up and go together in the next transaction
 * (group commit): one at a time when quiet, up to INBOUND_BATCH_MAX under load, one batch of a
 * tenant at a time in this process, so arrival order is commit order. A batch that
 * fails for another reason than a lost race is split, so one bad message cannot take others
 * with it.
 *
 * Lock order (every writer of these tables follows it, so bursts cannot deadlock): identities
 * and contacts in identity order -> tickets in (contact, channel) order -> the tenant row (the
 * events, last of all).
 */
export class InboundPipeline implements InboundPort {
  readonly hooks = new InboundHooks();
  private openingHooks: TicketOpeningHook[] = [];
  private readonly media: InboundMediaStore;
  private readonly queues = new Map<number, TenantQueue>();
  /** Background work per ticket, chained so a ticket's messages are handled in arrival order. */
  private readonly chains = new Map<number, Promise<void>>();
  private readonly pending = new Set<Promise<void>>();
  private readonly groupHooks = new Map<string, (event: GroupEvent) => Promise<void>>();
  private readonly groupChains = new Map<string, Promise<void>>();
  private mediaSlots = MEDIA_CONCURRENCY;
  /** Inbound messages queued (not yet in a batch), and message batches being written (see busy). */
  private messagesQueued = 0;
  private messageBatchesRunning = 0;
  private readonly mediaQueue: (() => void)[] = [];

  constructor(private readonly deps: PipelineDeps) {
    this.media = new InboundMediaStore(deps);
  }

  /** Registers a hook (see inbound-hooks.ts); the same name again replaces it. */
  useHook(hook: InboundHookRegistration): void {
    this.hooks.use(hook);
  }

  /**
   * Registers a group hook: it receives the providers' group events (members joined or left,
   * groups joined or changed), in arrival order per group, in the background. The same name
   * again replaces it. Registered by modules/groups (group-wiring.ts).
   */
  useGroupHook(name: string, run: (event: GroupEvent) => Promise<void>): void {
    this.groupHooks.set(name, run);
  }

  /** Port `groupEvent`: queued behind the group's earlier events; the provider does not wait for the hooks. */
  async groupEvent(event: GroupEvent): Promise<void> {
    if (this.groupHooks.size === 0) return;
    const key = event.kind === 'participants' ? `${event.channelId}:${event.groupId}` : `${event.channelId}:groups`;
    const previous = this.groupChains.get(key) ?? Promise.resolve();
    const next = previous.then(async () => {
      for (const [name, run] of this.groupHooks) {
        await run(event).catch((err) => this.deps.logger.error({ err, hook: name, channelId: event.channelId }, 'group hook failed'));
      }
    });
    this.groupChains.set(key, next);
    this.pending.add(next);
    void next.finally(() => {
      this.pending.delete(next);
      if (this.groupChains.get(key) === next) this.groupChains.delete(key);
    });
  }

  /** Registers an opening hook (see inbound-hooks.ts), run inside the batch for new tickets; the same name again replaces it. */
  useOpeningHook(hook: TicketOpeningHook): void {
    this.openingHooks = [...this.openingHooks.filter((h) => h.name !== hook.name), hook];
  }

  /** Stores messages in the order given (the provider's); resolves once they are committed. */
  receive(messages: readonly InboundMessage[]): Promise<InboundResult[]> {
    return Promise.all(
      messages.map((message) => this.enqueue(message.tenantId, { kind: 'message', message }) as Promise<InboundResult>),
    );
  }

  receiveOne(message: InboundMessage): Promise<InboundResult> {
    return this.enqueue(message.tenantId, { kind: 'message', message }) as Promise<InboundResult>;
  }

  /**
   * A delivery status becomes the outbound message's ack, only ever forward (read never goes
   * back to delivered; a late `sent` changes nothing). `failed` applies to a message not yet
   * delivered and keeps the provider's reason in lastError. Answers whether anything changed.
   */
  applyStatus(update: StatusUpdate): Promise<boolean> {
    return this.enqueue(update.tenantId, { kind: 'status', status: update }) as Promise<boolean>;
  }

  /**
   * Applies statuses that arrived before their message had its provider id (kept in
   * message_status_early), for one sent message or, without arguments, for every message
   * recorded since (the outbound sweep); drops those older than a day. Answers how many applied.
   */
  async applyEarlyStatuses(only?: { channelId: number; providerMessageId: string }): Promise<number> {
    const rows: EarlyStatusRow[] = returnedRows(
      await this.deps.dataSource.query(
        `DELETE FROM message_status_early e
             USING messages m
            WHERE m."whatsappId" = e."whatsappId" AND m."messageId" = e."messageId"
              ${only ? 'AND e."whatsappId" = $1 AND e."messageId" = $2' : ''}
           RETURNING e."tenantId", e."whatsappId", e."messageId", e.status, e.error, e.ack`,
        only ? [only.channelId, only.providerMessageId] : [],
      ),
    );
    if (!only) await this.deps.dataSource.query(`DELETE FROM message_status_early WHERE "receivedAt" < now() - interval '1 day'`);
    return this.applyTakenEarlyStatuses(rows);
  }

  /**
   * Applies early statuses already taken out of message_status_early by the caller (the outbound
   * delivery deletes them in the statement that records the provider id: one round trip fewer
   * per send). Answers how many changed something.
   */
  async applyTakenEarlyStatuses(rows: readonly EarlyStatusRow[]): Promise<number> {
    const now = Math.floor(Date.now() / 1000);
    // In ack order, so read after delivered; each only ever moves the ack forward anyway.
    const ordered = [...rows].sort((a, b) => ACK_BY_STATUS[a.status] - ACK_BY_STATUS[b.status]);
    let applied = 0;
    for (const r of ordered) {
      const changed = await this.applyStatus({
        tenantId: r.tenantId,
        channelId: r.whatsappId,
        providerMessageId: r.messageId,
        status: r.status,
        ...(r.error ? { error: r.error } : {}),
        timestamp: now,
      });
      if (changed) applied++;
    }
    return applied;
  }

  /**
   * Whether this process has inbound messages waiting for or inside a batch (any tenant) right
   * now: the signal background work (the campaign sender) yields to, so live conversations go
   * first. A counter and a field, no scan. Statuses do not count (a campaign's own sends bring
   * statuses back; a campaign yielding to them would yield to itself), nor the work after the
   * commit (hooks, media): the batch is what the webhook answer and the socket event wait for,
   * and a hook waiting on I/O costs no CPU. Instantaneous rather than "a batch ended within N ms":
   * a sender that checks it before each send yields in proportion to how busy the pipeline is
   * (light traffic, rarely; a backlog, always), where a time window would turn a few messages a
   * second into a campaign held at its floor.
   */
  busy(): boolean {
    return this.messagesQueued > 0 || this.messageBatchesRunning > 0;
  }

  /** Resolves when every queued write, background download and hook started so far has settled. */
  async idle(): Promise<void> {
    for (;;) {
      const busy = [...this.queues.values()].some((q) => q.running > 0 || q.entries.length > 0);
      if (!busy && this.pending.size === 0) return;
      if (this.pending.size > 0) await Promise.allSettled([...this.pending]);
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  // ---------- batching ----------

  private enqueue(tenantId: number, item: Item): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(tenantId);
      if (!queue) this.queues.set(tenantId, (queue = { entries: [], running: 0 }));
      queue.entries.push({ item, resolve, reject });
      if (item.kind === 'message') this.messagesQueued++;
      this.pump(tenantId, queue);
    });
  }

  private pump(tenantId: number, queue: TenantQueue): void {
    while (queue.running < BATCHES_IN_FLIGHT && queue.entries.length > 0) {
      const batch = takeBatch(queue.entries);
      const messages = batch[0].item.kind === 'message';
      queue.running++;
      if (messages) {
        this.messagesQueued -= batch.length;
        this.messageBatchesRunning++;
      }
      void this.runBatch(batch).finally(() => {
        queue.running--;
        if (messages) this.messageBatchesRunning--;
        if (queue.running === 0 && queue.entries.length === 0) this.queues.delete(tenantId);
        else this.pump(tenantId, queue);
      });
    }
  }

  private async runBatch(batch: Entry[]): Promise<void> {
    const first = batch[0].item;
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        if (first.kind === 'status') {
          const changed = await this.statusBatch(batch.map((e) => (e.item as Extract<Item, { kind: 'status' }>).status));
          batch.forEach((e, i) => e.resolve(changed[i]));
        } else if (first.message.type === 'reaction' && first.message.reaction) {
          batch[0].resolve(await this.applyReaction(first.message));
        } else {
          const { results, after } = await this.messageBatch(
            batch.map((e) => (e.item as Extract<Item, { kind: 'message' }>).message),
          );
          batch.forEach((e, i) => e.resolve(results[i]));
          for (const [ticketId, task] of after) this.inBackground(ticketId, task);
        }
        this.deps.logger.debug(
          { kind: first.kind, size: batch.length, attempt, ms: Math.round(performance.now() - started) },
          'inbound batch',
        );
        return;
      } catch (err) {
        if (isRetryable(err) && attempt < BATCH_TRIES) continue;
        if (batch.length === 1) {
          batch[0].reject(err);
          return;
        }
        this.deps.logger.warn({ err, size: batch.length }, 'inbound batch failed; retrying its items one by one');
        for (const entry of batch) await this.runBatch([entry]);
        return;
      }
    }
  }

  // ---------- messages ----------

  private async messageBatch(
    messages: InboundMessage[],
  ): Promise<{ results: InboundResult[]; after: [number, () => Promise<void>][] }> {
    const tenantId = messages[0].tenantId;
    const after: [number, () => Promise<void>][] = [];
    const results = await this.deps.events.transaction(async (tx, _emit, emitMany) => {
      const prepared: Prepared[] = messages.map((message) => {
        const phone = phoneOf(message);
        return {
          message,
          phone,
          identityKey: `${message.from.kind}:${message.from.externalId}`,
          lookup: undefined as unknown as LookupRow,
        };
      });
      const lookups = await bulkLookup(tx, tenantId, prepared);
      prepared.forEach((p, i) => (p.lookup = lookups[i]));
      const results: InboundResult[] = prepared.map((p) => ({
        providerMessageId: p.message.providerMessageId,
        outcome: 'duplicate',
      }));

      // The same provider message twice in one batch: the first one counts.
      const seen = new Set<string>();
      const live = prepared.filter((p, i) => {
        const key = `${p.message.channelId}:${p.message.providerMessageId}`;
        if (!p.lookup.channelFound) results[i].outcome = 'ignored';
        if (!p.lookup.channelFound || p.lookup.duplicate || seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (live.length === 0) return results;

      // Contacts, in identity order.
      const contacts = new Map<string, ContactRef>();
      for (const p of [...live].sort((a, b) => (a.identityKey < b.identityKey ? -1 : a.identityKey > b.identityKey ? 1 : 0))) {
        let contact = contacts.get(p.identityKey);
        if (!contact) {
          contact = await this.contactFor(tx, p);
          contacts.set(p.identityKey, contact);
        }
        p.contact = contact;
      }

      // Tickets, in (contact, channel) order.
      const tickets = new Map<string, { id: number; created: boolean }>();
      const ticketOrder = [...new Map(live.map((p) => [`${p.contact!.id}:${p.message.channelId}`, p])).entries()].sort(
        ([, a], [, b]) => a.contact!.id - b.contact!.id || a.message.channelId - b.message.channelId,
      );
      const upserted = await upsertActiveTickets(
        tx,
        ticketOrder.map(([, p]) => ({
          tenantId,
          contactId: p.contact!.id,
          channelId: p.message.channelId,
          channelType: p.lookup.channelType,
          isGroup: p.message.isGroup,
          queueId: p.lookup.channelQueueId,
          status: 'pending' as const,
        })),
      );
      ticketOrder.forEach(([key], i) => tickets.set(key, { id: upserted[i].ticket.id, created: upserted[i].created }));
      for (const p of live) p.ticketKey = `${p.contact!.id}:${p.message.channelId}`;

      // Opening hooks (a campaign answer): before the customer's messages, so what they store comes first.
      const openings = await this.runOpeningHooks(
        tx,
        upserted.filter((u) => u.created && !u.ticket.isGroup && u.ticket.whatsappId !== null).map((u) => ({
          tenantId,
          ticketId: u.ticket.id,
          contactId: u.ticket.contactId,
          channelId: u.ticket.whatsappId!,
          queueId: u.ticket.queueId,
        })),
      );

      // The messages, in arrival order, in one statement.
      const inserted = await bulkInsertMessages(tx, tenantId, live, tickets);
      const stored = live.filter((p) => inserted.has(`${p.message.channelId}:${p.message.providerMessageId}`));
      await resolveQuotesWithinBatch(tx, tenantId, stored, inserted);

      // A ticket created for messages that all turned out to be duplicates (another delivery won
      // the insert meanwhile) must not stay.
      const usedTickets = new Set(stored.map((p) => tickets.get(p.ticketKey!)!.id));
      const orphans = [...tickets.values()].filter((t) => t.created && !usedTickets.has(t.id)).map((t) => t.id);
      if (orphans.length > 0)
        await tx.query(`DELETE FROM tickets WHERE id = ANY($1::int[]) AND "tenantId" = $2`, [orphans, tenantId]);
      if (stored.length === 0) return results;

      // Ticket counters: one statement for every ticket of the batch.
      const perTicket = new Map<number, { n: number; preview: string }>();
      for (const p of stored) {
        const id = tickets.get(p.ticketKey!)!.id;
        const preview = lastMessagePreview({
          body: withoutNul(p.message.body),
          mediaType: p.message.type,
          mediaName: p.message.media?.fileName ?? null,
        });
        perTicket.set(id, { n: (perTicket.get(id)?.n ?? 0) + 1, preview });
      }
      const ticketIds = [...perTicket.keys()];
      await tx.query(
        `UPDATE tickets t SET "lastMessage" = x.preview, "lastMessageAt" = now(), "unreadMessages" = t."unreadMessages" + x.n,
                answered = false, "updatedAt" = now()
           FROM unnest($1::int[], $2::int[], $3::text[]) AS x(id, n, preview)
          WHERE t.id = x.id`,
        [ticketIds, ticketIds.map((id) => perTicket.get(id)!.n), ticketIds.map((id) => perTicket.get(id)!.preview)],
      );

      const messageIds = stored.map((p) => inserted.get(`${p.message.channelId}:${p.message.providerMessageId}`)!);
      // The customer's messages are metric facts, with each ticket's queue and agent now.
      await recordInboundMessages(tx, messageIds);
      // What opening hooks stored in tickets that stay, announced before the customer's messages.
      const openingMessageIds = [...openings.values()].filter((o) => usedTickets.has(o.ticketId)).flatMap((o) => o.messageIds);

      // Reads for the payloads, then every event in one statement (the tenant lock, last).
      const ticketRows: TicketRow[] = await tx.query(`${TICKET_SELECT} WHERE t.id = ANY($1::int[])`, [ticketIds]);
      const messageRows = await selectMessagesByIds(tx, [...openingMessageIds, ...messageIds]);
      const ticketById = new Map(ticketRows.map((r) => [r.id, r]));
      const events: PendingEvent[] = [];
      const createdContacts = [...new Set(stored.filter((p) => p.contact!.created).map((p) => p.contact!.id))];
      for (const contactId of createdContacts) {
        const row = await loadContact(tx, contactId);
        if (row)
          events.push({
            name: SOCKET_EVENTS.contactUpdate,
            payload: { action: 'create', contact: presentContact(row) } satisfies ContactEventPayload,
          });
      }
      const audienceOf = (ticketId: number) => ({ scope: 'ticket' as const, ticket: audienceFactsOf(ticketById.get(ticketId)!) });
      const createdTicket = new Set([...tickets.values()].filter((t) => t.created).map((t) => t.id));
      for (const id of ticketIds) {
        const created = createdTicket.has(id);
        const payload: TicketEventPayload = { action: created ? 'create' : 'update', ticket: presentTicket(ticketById.get(id)!) };
        events.push({
          name: created ? SOCKET_EVENTS.ticketCreate : SOCKET_EVENTS.ticketUpdate,
          payload,
          audience: audienceOf(id),
        });
      }
      messageRows.forEach((row) => {
        const payload: MessageEventPayload = { action: 'create', ticketId: row.ticketId, message: presentMessage(row) };
        events.push({ name: SOCKET_EVENTS.messageCreate, payload, audience: audienceOf(row.ticketId) });
      });
      await emitMany(tenantId, events);

      for (const p of stored) {
        const index = prepared.indexOf(p);
        const ticketRef = tickets.get(p.ticketKey!)!;
        const row = ticketById.get(ticketRef.id)!;
        const messageId = inserted.get(`${p.message.channelId}:${p.message.providerMessageId}`)!;
        results[index] = {
          providerMessageId: p.message.providerMessageId,
          outcome: 'stored',
          messageId,
          ticketId: ticketRef.id,
          contactId: p.contact!.id,
          ticketCreated: ticketRef.created,
          contactCreated: p.contact!.created,
        };
        const event: InboundEvent = {
          tenantId,
          channel: { id: p.message.channelId, type: p.lookup.channelType!, queueId: p.lookup.channelQueueId },
          inbound: p.message,
          messageId,
          ticket: {
            id: row.id,
            status: row.status,
            queueId: row.queueId,
            userId: row.userId,
            botActive: row.botActive,
            chatFlowId: row.chatFlowId,
            isGroup: row.isGroup,
            ratingRequested: row.ratingRequestedAt !== null,
            created: ticketRef.created,
            ...(openings.get(row.id)?.queueId !== undefined ? { routed: true } : {}),
          },
          contact: { id: p.contact!.id, name: row.contactName, number: row.contactNumber, created: p.contact!.created },
        };
        const media = p.message.media;
        const type = p.message.type;
        after.push([
          row.id,
          async () => {
            if (media) await this.withMediaSlot(() => this.media.fetchAndStore(tenantId, messageId, media, type));
            await this.runHooks(event);
          },
        ]);
      }
      return results;
    });
    return { results, after };
  }

  /**
   * The opening hooks for the tickets the batch creates; queue changes they ask for are written
   * here (the ticket and its 'opened' facts), before anything reads the ticket for an event.
   * Answers by ticket id.
   */
  private async runOpeningHooks(tx: EntityManager, opened: OpeningTicket[]): Promise<Map<number, TicketOpening>> {
    const byTicket = new Map<number, TicketOpening>();
    if (opened.length === 0 || this.openingHooks.length === 0) return byTicket;
    const known = new Set(opened.map((o) => o.ticketId));
    for (const hook of this.openingHooks) {
      for (const o of await hook.run(tx, opened)) {
        if (!known.has(o.ticketId)) continue;
        const before = byTicket.get(o.ticketId);
        byTicket.set(o.ticketId, {
          ticketId: o.ticketId,
          queueId: o.queueId ?? before?.queueId,
          messageIds: [...(before?.messageIds ?? []), ...o.messageIds],
        });
      }
    }
    const moves = [...byTicket.values()].filter((o) => o.queueId !== undefined).map((o) => ({ ticketId: o.ticketId, queueId: o.queueId! }));
    await moveOpenedTickets(tx, moves);
    return byTicket;
  }

  /** The contact of a message that has none yet (or lacks this identity): found again under a lock, or created. */
  private async contactFor(tx: EntityManager, p: Prepared): Promise<ContactRef> {
    const { message, phone, lookup } = p;
    const { from } = message;
    if (lookup.contactId !== null && lookup.hasIdentity) return { id: lookup.contactId, created: false };
    let contactId = lookup.contactId;
    let hasIdentity = lookup.hasIdentity;
    let created = false;
    if (contactId === null) {
      // Serialise the creators of this identity (a burst of one new contact's messages), then
      // look again: the one before us may have just created it.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`inbound:${message.tenantId}:${p.identityKey}`]);
      const [again] = await bulkLookup(tx, message.tenantId, [p]);
      contactId = again.contactId;
      hasIdentity = again.hasIdentity;
    }
    if (contactId === null) {
      const column = CONTACT_COLUMN_BY_KIND[from.kind];
      const rows: { id: number; created: boolean }[] = await tx.query(
        `INSERT INTO contacts ("tenantId", name, number, "profilePicUrl", "isGroup"${column ? `, "${column}"` : ''})
         VALUES ($1, $2, $3, $4, $5${column ? ', $6' : ''})
         ON CONFLICT ("tenantId", number) WHERE number IS NOT NULL DO UPDATE SET "updatedAt" = contacts."updatedAt"
         RETURNING id, (xmax = 0) AS created`,
        [
          message.tenantId,
          (from.name?.trim() || phone || from.externalId).slice(0, 255),
          phone,
          from.profilePicUrl ?? null,
          message.isGroup,
          ...(column ? [from.externalId] : []),
        ],
      );
      contactId = rows[0].id;
      created = rows[0].created;
    }
    if (!hasIdentity) {
      // A contact keeps every id it has (LESSONS 8): this one joins its identities.
      await tx.query(
        `INSERT INTO contact_identities ("tenantId", "contactId", kind, "externalId", "channelId")
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("tenantId", kind, "externalId") DO NOTHING`,
        [message.tenantId, contactId, from.kind, from.externalId, message.channelId],
      );
    }
    return { id: contactId, created };
  }

  // ---------- statuses ----------

  private async statusBatch(statuses: StatusUpdate[]): Promise<boolean[]> {
    const tenantId = statuses[0].tenantId;
    return this.deps.events.transaction(async (tx, _emit, emitMany) => {
      const updated = returnedRows<{ id: number | string; ticketId: number; whatsappId: number; messageId: string }>(
        await tx.query(
          `WITH x AS (
             SELECT * FROM unnest($2::int[], $3::varchar[], $4::varchar[], $5::int[], $6::text[]) AS x(channel, mid, status, ack, err)
           ), locked AS (
             SELECT m.id, x.status, x.ack, x.err FROM messages m
               JOIN x ON m."whatsappId" = x.channel AND m."messageId" = x.mid
              WHERE m."tenantId" = $1 AND m."fromMe"
              ORDER BY m.id
                FOR UPDATE OF m
           )
           UPDATE messages m
              SET status = l.status, ack = l.ack, "lastError" = CASE WHEN l.status = 'failed' THEN l.err ELSE m."lastError" END, "updatedAt" = now()
             FROM locked l
            WHERE m.id = l.id AND (CASE WHEN l.ack = -1 THEN m.ack IN (0, 1) AND m.status <> 'failed' ELSE m.ack < l.ack END)
           RETURNING m.id, m."ticketId", m."whatsappId", m."messageId"`,
          [
            tenantId,
            statuses.map((s) => s.channelId),
            statuses.map((s) => s.providerMessageId),
            statuses.map((s) => s.status),
            statuses.map((s) => ACK_BY_STATUS[s.status]),
            statuses.map((s) => s.error ?? s.status),
          ],
        ),
      );
      if (updated.length < statuses.length) {
        // A status about a message not stored yet (its send has not recorded the provider id)
        // waits for it instead of being lost; see applyEarlyStatuses.
        await tx.query(
          `INSERT INTO message_status_early ("tenantId", "whatsappId", "messageId", status, ack, error)
           SELECT $1, x.channel, x.mid, x.status, x.ack, x.err
             FROM unnest($2::int[], $3::varchar[], $4::varchar[], $5::int[], $6::text[]) AS x(channel, mid, status, ack, err)
            WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m."whatsappId" = x.channel AND m."messageId" = x.mid)
              AND EXISTS (SELECT 1 FROM channels c WHERE c.id = x.channel AND c."tenantId" = $1)
           ON CONFLICT DO NOTHING`,
          [
            tenantId,
            statuses.map((s) => s.channelId),
            statuses.map((s) => s.providerMessageId),
            statuses.map((s) => s.status),
            statuses.map((s) => ACK_BY_STATUS[s.status]),
            statuses.map((s) => s.error ?? null),
          ],
        );
      }
      if (updated.length === 0) return statuses.map(() => false);
      const ticketRows: TicketRow[] = await tx.query(`${TICKET_SELECT} WHERE t.id = ANY($1::int[])`, [
        [...new Set(updated.map((u) => u.ticketId))],
      ]);
      const ticketById = new Map(ticketRows.map((r) => [r.id, r]));
      const rows = await selectMessagesByIds(
        tx,
        updated.map((u) => Number(u.id)),
      );
      const events: PendingEvent[] = rows
        .filter((row) => ticketById.has(row.ticketId))
        .map((row) => ({
          name: SOCKET_EVENTS.messageAck,
          payload: { action: 'update', ticketId: row.ticketId, message: presentMessage(row) } satisfies MessageEventPayload,
          audience: { scope: 'ticket', ticket: audienceFactsOf(ticketById.get(row.ticketId)!) },
        }));
      await emitMany(tenantId, events);
      const changed = new Set(updated.map((u) => `${u.whatsappId}:${u.messageId}`));
      return statuses.map((s) => changed.has(`${s.channelId}:${s.providerMessageId}`));
    });
  }

  // ---------- reactions ----------

  /**
   * A reaction changes its target message (stored or sent on this channel): the contact's
   * previous reaction is replaced, an empty emoji removes it. A repeated delivery changes
   * nothing and emits nothing.
   */
  private async applyReaction(message: InboundMessage): Promise<InboundResult> {
    const base = { providerMessageId: message.providerMessageId };
    const reaction = message.reaction!;
    return this.deps.events.transaction(async (tx, emit) => {
      const p: Prepared = {
        message,
        phone: phoneOf(message),
        identityKey: `${message.from.kind}:${message.from.externalId}`,
        lookup: undefined as unknown as LookupRow,
      };
      const [lookup] = await bulkLookup(tx, message.tenantId, [p]);
      if (lookup.contactId === null) return { ...base, outcome: 'ignored' as const };
      const entry: MessageReaction = {
        emoji: reaction.emoji,
        fromMe: false,
        contactId: lookup.contactId,
        timestamp: message.timestamp,
      };
      const rows = returnedRows<{ id: number | string; ticketId: number }>(
        await tx.query(
          `WITH target AS (
             SELECT id, reactions FROM messages
              WHERE "whatsappId" = $1 AND "messageId" = $2 AND "tenantId" = $3 FOR UPDATE
           ), next AS (
             SELECT id, reactions AS before,
                    COALESCE((SELECT jsonb_agg(r) FROM jsonb_array_elements(target.reactions) r
                               WHERE r->>'fromMe' = 'true' OR r->>'contactId' IS DISTINCT FROM $4::text), '[]'::jsonb)
                    || CASE WHEN $5::text = '' THEN '[]'::jsonb ELSE jsonb_build_array($6::jsonb) END AS after
               FROM target
           )
           UPDATE messages m SET reactions = next.after, "updatedAt" = now()
             FROM next
            WHERE m.id = next.id
              AND NOT (next.before @> next.after AND next.after @> next.before)
           RETURNING m.id, m."ticketId"`,
          [
            message.channelId,
            reaction.targetProviderMessageId,
            message.tenantId,
            String(lookup.contactId),
            reaction.emoji,
            JSON.stringify(entry),
          ],
        ),
      );
      const row = rows[0];
      if (!row) return { ...base, outcome: 'ignored' as const };
      const ticket = await loadTicket(tx, row.ticketId);
      if (ticket) await emitMessages(tx, emit, ticket, 'update', [Number(row.id)]);
      return {
        ...base,
        outcome: 'reaction' as const,
        messageId: Number(row.id),
        ticketId: row.ticketId,
        contactId: lookup.contactId,
      };
    });
  }

  // ---------- after the commit ----------

  private async runHooks(event: InboundEvent): Promise<void> {
    for (const hook of this.hooks.list()) {
      try {
        if ((await hook.run(event)) === 'handled') return;
      } catch (err) {
        this.deps.logger.error(
          { err, hook: hook.name, messageId: event.messageId, ticketId: event.ticket.id },
          'inbound hook failed',
        );
      }
    }
  }

  private inBackground(ticketId: number, task: () => Promise<void>): void {
    const previous = this.chains.get(ticketId) ?? Promise.resolve();
    const next = previous.then(task).catch((err) => this.deps.logger.error({ err, ticketId }, 'inbound background work failed'));
    this.chains.set(ticketId, next);
    this.pending.add(next);
    void next.finally(() => {
      this.pending.delete(next);
      if (this.chains.get(ticketId) === next) this.chains.delete(ticketId);
    });
  }

  private async withMediaSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.mediaSlots === 0) await new Promise<void>((resolve) => this.mediaQueue.push(resolve));
    else this.mediaSlots--;
    try {
      return await work();
    } finally {
      const waiting = this.mediaQueue.shift();
      if (waiting) waiting();
      else this.mediaSlots++;
    }
  }
}

/**
 * The next batch from the head of a tenant's queue: a run of messages (a reaction goes alone,
 * since it may target a message of the run before it) or a run of statuses (a message's second
 * status waits for the next batch, so statuses apply in the order they came).
 */
function takeBatch(entries: Entry[]): Entry[] {
  const first = entries[0].item;
  if (first.kind === 'message' && first.message.type === 'reaction') return entries.splice(0, 1);
  let size = 0;
  const seen = new Set<string>();
  while (size < entries.length && size < INBOUND_BATCH_MAX) {
    const item = entries[size].item;
    if (item.kind !== first.kind) break;
    if (item.kind === 'message' && item.message.type === 'reaction') break;
    if (item.kind === 'status') {
      const key = `${item.status.channelId}:${item.status.providerMessageId}`;
      if (seen.has(key)) break;
      seen.add(key);
    }
    size++;
  }
  return entries.splice(0, size);
}

/**
 * One round trip for a whole batch: each message's channel (default queue, type), whether it is
 * already stored, and its contact by identity (first) or by number.
 */
async function bulkLookup(tx: EntityManager, tenantId: number, prepared: Prepared[]): Promise<LookupRow[]> {
  const rows: LookupRow[] = await tx.query(
    `SELECT x.ord::int AS ord, (ch.id IS NOT NULL) AS "channelFound", ch."queueId" AS "channelQueueId", ch.type AS "channelType",
            EXISTS (SELECT 1 FROM messages m WHERE m."whatsappId" = x.channel AND m."messageId" = x.mid) AS duplicate,
            COALESCE(i."contactId", n.id) AS "contactId", (i."contactId" IS NOT NULL) AS "hasIdentity"
       FROM unnest($2::int[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[]) WITH ORDINALITY AS x(channel, mid, kind, ext, phone, ord)
       LEFT JOIN channels ch ON ch.id = x.channel AND ch."tenantId" = $1
       LEFT JOIN contact_identities i ON i."tenantId" = $1 AND i.kind = x.kind AND i."externalId" = x.ext
       LEFT JOIN contacts n ON n."tenantId" = $1 AND n.number = x.phone AND i."contactId" IS NULL
      ORDER BY x.ord`,
    [
      tenantId,
      prepared.map((p) => p.message.channelId),
      prepared.map((p) => p.message.providerMessageId),
      prepared.map((p) => p.message.from.kind),
      prepared.map((p) => p.message.from.externalId),
      prepared.map((p) => p.phone),
    ],
  );
  return rows;
}

/** Inserts the batch's messages in arrival order; answers "channel:providerId" -> messages.id of those stored now. */
async function bulkInsertMessages(
  tx: EntityManager,
  tenantId: number,
  live: Prepared[],
  tickets: Map<string, { id: number }>,
): Promise<Map<string, number>> {
  const dataOf = (m: InboundMessage): string | null => {
    const media = m.media ? { media: { providerMediaId: m.media.providerMediaId ?? null, state: 'pending' } } : null;
    return media || m.location ? JSON.stringify({ ...media, ...(m.location ? { location: m.location } : {}) }) : null;
  };
  const rows: { id: number | string; messageId: string; whatsappId: number }[] = await tx.query(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "messageId", "whatsappId", "fromMe", "mediaType",
                           "mimeType", "mediaName", "quotedMsgId", status, ack, timestamp, "dataJson")
     SELECT $1, x.ticket, x.contact, x.body, x.mid, x.channel, false, x.mtype, x.mime, x.mname,
            (SELECT q.id FROM messages q WHERE q."whatsappId" = x.channel AND q."messageId" = x.quoted AND q."tenantId" = $1),
            'received', 0, x.ts, x.data
       FROM unnest($2::int[], $3::int[], $4::text[], $5::varchar[], $6::int[], $7::varchar[], $8::varchar[], $9::varchar[],
                   $10::varchar[], $11::bigint[], $12::jsonb[])
            WITH ORDINALITY AS x(ticket, contact, body, mid, channel, mtype, mime, mname, quoted, ts, data, ord)
      ORDER BY x.ord
     ON CONFLICT ("whatsappId", "messageId") WHERE "messageId" IS NOT NULL DO NOTHING
     RETURNING id, "messageId", "whatsappId"`,
    [
      tenantId,
      live.map((p) => tickets.get(p.ticketKey!)!.id),
      live.map((p) => p.contact!.id),
      live.map((p) => withoutNul(p.message.body)),
      live.map((p) => p.message.providerMessageId),
      live.map((p) => p.message.channelId),
      live.map((p) => p.message.type),
      live.map((p) => p.message.media?.mimeType ?? null),
      live.map((p) => p.message.media?.fileName ?? null),
      live.map((p) => p.message.quotedProviderMessageId ?? null),
      live.map((p) => p.message.timestamp),
      live.map((p) => dataOf(p.message)),
    ],
  );
  return new Map(rows.map((r) => [`${r.whatsappId}:${r.messageId}`, Number(r.id)]));
}

/** A reply quoting a message of the same batch: the INSERT could not see it yet. */
async function resolveQuotesWithinBatch(
  tx: EntityManager,
  tenantId: number,
  stored: Prepared[],
  inserted: Map<string, number>,
): Promise<void> {
  for (const p of stored) {
    const quoted = p.message.quotedProviderMessageId;
    const target = quoted ? inserted.get(`${p.message.channelId}:${quoted}`) : undefined;
    if (target === undefined) continue;
    const id = inserted.get(`${p.message.channelId}:${p.message.providerMessageId}`);
    await tx.query(`UPDATE messages SET "quotedMsgId" = $1 WHERE id = $2 AND "tenantId" = $3 AND "quotedMsgId" IS NULL`, [
      target,
      id,
      tenantId,
    ]);
  }
}

/** PostgreSQL text cannot hold NUL; a message carrying one would otherwise fail on every delivery. */
const withoutNul = (text: string): string => text.split('\u0000').join('');

/** The normalised contact number of the sender, when the provider gave a phone number. */
function phoneOf(message: InboundMessage): string | null {
  if (!message.from.phone || message.isGroup) return null;
  const digits = message.from.phone.replace(/\D/g, '');
  if (!digits) return null;
  // WhatsApp's digits are authoritative even when libphonenumber does not know the range yet.
  return normalizeContactNumber(`+${digits}`) ?? digits;
}
