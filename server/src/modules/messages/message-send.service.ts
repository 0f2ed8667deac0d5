import { ACK_BY_STATUS, ChannelSendError, type ChannelAdapter, type OutboundTarget } from '../../channels/channel-adapter';
import {
  MESSAGE_DELETE_WINDOW_HOURS,
  MESSAGE_MAX_FILES,
  type DeliveryWarning,
  type EditMessageInput,
  type ForwardMessagesInput,
  type ForwardMessagesResponse,
  type GhostMessageInput,
  type ListParticipantsResponse,
  type MentionAllMessageInput,
  type MentionMessageInput,
  type MessageDto,
  type MessageReaction,
  type ReactionMessageInput,
  type SendButtonInput,
  type SendMessageInput,
  type SendMessageResponse,
} from '@shared/schemas/messages';
import type { MessagingWindowDto, SendTemplateInput, StoredTemplateDto } from '@shared/schemas/templates';
import { AppError } from '../../core/app-error';

/** An adapter that can import old messages (QR-code sessions). */
interface HistoryAdapter {
  requestHistory(limit: number, anchors: { target: OutboundTarget; providerMessageId: string; timestamp: number }[]): Promise<number>;
}
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { assertWindowOpenForText, messagingWindow } from '../templates/messaging-window';
import { templateDraft } from '../templates/template-send';
import { presentTemplate, storedTemplates } from '../templates/template-store';
import { upsertActiveTicket } from '../tickets/ticket-upsert';
import { MessageAccess, messageNotFound } from './message-access';
import { emitMessages } from './message-events';
import { discardMedia, type ReceivedMedia } from './message-media';
import { closeEmptyHoldingTicket } from './message-schedule-ticket';
import { insertOutbound, serverClientId, type OutboundDraft } from './message-store';
import { emitTicketChanged, touchTicketForOutbound } from './message-ticket-events';
import { loadTicket, type MessageTicket } from './message-ticket';
import { renderForTicket } from './message-variables.values';
import { authorizeMessageChange } from './messages.policy';
import { presentMessage, type MessageRow } from './messages.presenter';
import { selectMessagesByIds } from './messages.query';
import { OutboundDelivery, waitingForChannelText, type ChannelAdapterSource } from './outbound-delivery';
import { loadChannel, resolveTarget } from './outbound-target';

export interface SendOutcome {
  /** 201 when the request wrote messages, 200 when a retry found them (same clientId). */
  status: 200 | 201;
  body: SendMessageResponse;
}

const ACTIVE_TICKET = new Set(['open', 'pending']);

interface Written {
  ids: number[];
  created: boolean;
  warning: DeliveryWarning | null;
}

/**
 * Everything that sends, changes or removes a message of a ticket. A send writes the row first
 * (status pending, a client id), then leaves the provider call to OutboundDelivery; edits,
 * deletes and reactions are changes of something the customer already has, so they call the
 * provider before answering and change nothing when it refuses.
 */
export class MessageSendService {
  private readonly access: MessageAccess;

  constructor(
    private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'config' | 'logger' | 'jobs'>,
    private readonly delivery: OutboundDelivery,
    private readonly adapters: () => ChannelAdapterSource | undefined,
  ) {
    this.access = new MessageAccess(deps);
  }

  /**
   * POST /messages/{ticketId}: text and/or files (one message per file, the text as the first
   * file's caption, or one text per file when `body` is repeated). Message variables are filled
   * now. `isPrivate` stores a note that never leaves the server. A `scheduleDate` stores the
   * messages as scheduled (the same rows as POST /messagesSchedule/: variables filled and sent
   * when due). Without a usable channel the messages stay pending and the answer's `warning`
   * says why (they go out once the channel connects, or fail after a day).
   */
  async send(
    auth: AuthContext,
    ticketId: number,
    input: SendMessageInput,
    files: ReceivedMedia[] = [],
    opts: { enqueue?: boolean } = {},
  ): Promise<SendOutcome> {
    let written: Written;
    try {
      const { ticket } = await this.access.ticket(auth, ticketId);
      const texts = textsFor(input, files);
      const isPrivate = input.isPrivate === true;
      const now = this.deps.clock.now();
      const scheduleDate = input.scheduleDate ?? null;
      const quotedMsgId = input.quotedMsgId ?? null;
      try {
        if (files.length === 0 && !texts[0].trim()) {
          throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'Mensagem é obrigatório' }] });
        }
        if (scheduleDate && scheduleDate.getTime() <= now.getTime()) {
          throw new AppError('ERR_VALIDATION', { fields: [{ path: 'scheduleDate', message: 'Data inválida: deve ser no futuro' }] });
        }
        // A scheduled message may wait on a closed ticket, as with POST /messagesSchedule/: when
        // due it goes to the contact's ongoing ticket.
        if (!isPrivate && !scheduleDate) {
          assertActive(ticket);
          await assertWindowOpenForText(this.deps.dataSource, ticket, now);
        }
        if (quotedMsgId !== null) await this.assertQuotable(ticket, quotedMsgId);
      } catch (refusal) {
        // A retry of a send already stored (an offline outbox replaying after the answer was
        // lost) answers the stored messages: the ticket may have been closed since, and refusing
        // would tell the agent that a stored message was not. Looked up only on a refusal: an
        // accepted send's write is idempotent on its client id anyway.
        const stored = input.clientId && refusal instanceof AppError ? await this.storedSend(ticket, input.clientId) : null;
        if (!stored) throw refusal;
        await discardMedia(files);
        return this.answer({ ids: stored, created: false, warning: null });
      }
      const rendered =
        isPrivate || scheduleDate
          ? texts
          : await Promise.all(
              texts.map((text) =>
                text
                  ? renderForTicket(this.deps.dataSource, text, {
                      tenantId: ticket.tenantId,
                      ticketId: ticket.id,
                      userId: auth.userId,
                      now,
                    })
                  : text,
              ),
            );
      const clientId = input.clientId ?? serverClientId();
      const warning = isPrivate || scheduleDate ? null : await this.channelWarning(ticket);
      const base = {
        isPrivate,
        quotedMsgId,
        status: isPrivate ? ('sent' as const) : scheduleDate ? ('scheduled' as const) : ('pending' as const),
        lastError: warning?.message ?? null,
      };
      // Scheduled rows carry the schedule facts POST /messagesSchedule/ writes (one occurrence).
      const scheduled = (id: string) =>
        scheduleDate ? { scheduleDate, dataJson: { schedule: { recurrenceDays: 0, repetitions: 1, occurrence: 1, seriesId: id } } } : {};
      const drafts: OutboundDraft[] =
        files.length === 0
          ? [{ ...base, body: rendered[0], mediaType: 'chat', clientId, ...scheduled(clientId) }]
          : files.map((file, i) => {
              // Derived ids cannot collide with a client's: '#' is not allowed in clientId.
              const id = i === 0 ? clientId : `${clientId}#${i}`;
              return {
                ...base,
                body: rendered[i],
                mediaType: file.mediaType,
                mediaPath: file.relativePath,
                mediaName: file.fileName,
                mimeType: file.mimeType,
                clientId: id,
                ...scheduled(id),
              };
            });
      written = await this.write(auth, ticket, drafts, warning);
    } catch (err) {
      await discardMedia(files);
      throw err;
    }
    // A retry of a request already stored: its files are the first request's, these are extra.
    if (!written.created) await discardMedia(files);
    return this.answer(written, opts.enqueue ?? true);
  }

  /**
   * POST /noRedis: the anchor's send path that skips the queue. The same write, then the
   * delivery runs in this request and the answer carries the outcome (sent, failed, or pending
   * with the retry already planned).
   */
  async sendNow(auth: AuthContext, ticketId: number, input: SendMessageInput, files: ReceivedMedia[] = []): Promise<SendOutcome> {
    // Not enqueued: a worker must not take the row from under this request.
    const outcome = await this.send(auth, ticketId, input, files, { enqueue: false });
    if (!outcome.body.created) return outcome;
    for (const m of outcome.body.messages) if (m.status === 'pending') await this.delivery.deliver(m.id, { wait: true });
    outcome.body.messages = (
      await selectMessagesByIds(
        this.deps.dataSource,
        outcome.body.messages.map((m) => m.id),
      )
    ).map(presentMessage);
    return outcome;
  }

  /** POST /messages/ghostMessage: a note in the thread that is never sent to the customer. */
  async ghost(auth: AuthContext, input: GhostMessageInput): Promise<SendOutcome> {
    return this.send(auth, input.ticketId, { body: input.body, clientId: input.clientId, isPrivate: true });
  }

  /** POST /sendButton: interactive reply buttons (spec section 5 limits, checked by the schema). */
  async sendButtons(auth: AuthContext, input: SendButtonInput): Promise<SendOutcome> {
    const { ticket } = await this.access.ticket(auth, input.ticketId);
    assertActive(ticket);
    await assertWindowOpenForText(this.deps.dataSource, ticket, this.deps.clock.now());
    const buttons = input.buttons.map((b, i) => ({ id: b.id ?? `btn-${i + 1}`, title: b.title }));
    if (new Set(buttons.map((b) => b.id)).size !== buttons.length) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'buttons', message: 'os valores dos botões devem ser diferentes' }],
      });
    }
    const warning = await this.channelWarning(ticket);
    return this.store(
      auth,
      ticket,
      [
        {
          body: input.body,
          mediaType: 'interactive',
          clientId: input.clientId ?? serverClientId(),
          isPrivate: false,
          status: 'pending',
          dataJson: { buttons },
          lastError: warning?.message ?? null,
        },
      ],
      warning,
    );
  }

  /** GET /tickets/{ticketId}/messaging-window: the WABA 24-hour window of the ticket's conversation. */
  async messagingWindow(auth: AuthContext, ticketId: number): Promise<MessagingWindowDto> {
    const { ticket } = await this.access.ticket(auth, ticketId);
    return messagingWindow(this.deps.dataSource, ticket, this.deps.clock.now());
  }

  /**
   * GET /tickets/{ticketId}/templates: the approved templates of the ticket's WABA channel, for
   * whoever sees the ticket (the composer's template dialog; agents cannot read the channel's
   * list). Another channel type: ERR_CHANNEL_OPERATION_UNSUPPORTED.
   */
  async ticketTemplates(auth: AuthContext, ticketId: number): Promise<StoredTemplateDto[]> {
    const { ticket } = await this.access.ticket(auth, ticketId);
    const channel = ticket.whatsappId === null ? null : await loadChannel(this.deps.dataSource, ticket.tenantId, ticket.whatsappId);
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    if (channel.type !== 'waba') {
      throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', { message: 'Modelos de mensagem existem apenas em conexões WABA.' });
    }
    const rows = await storedTemplates(this.deps.dataSource, ticket.tenantId, channel.id);
    return rows.filter((r) => r.status === 'APPROVED').map(presentTemplate);
  }

  /**
   * POST /messages/{ticketId}/template: a WABA message template with its header, body and
   * button variables (checked against the channel's stored template), written pending like any
   * send and delivered by OutboundDelivery (adapter.sendTemplate). Allowed outside the 24-hour
   * window, which is what templates are for. Other channel types: ERR_CHANNEL_OPERATION_UNSUPPORTED.
   */
  async sendTemplate(auth: AuthContext, ticketId: number, input: SendTemplateInput): Promise<SendOutcome> {
    const { ticket } = await this.access.ticket(auth, ticketId);
    const clientId = input.clientId ?? serverClientId();
    try {
      assertActive(ticket);
      const channel = ticket.whatsappId === null ? null : await loadChannel(this.deps.dataSource, ticket.tenantId, ticket.whatsappId);
      if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
      if (channel.type !== 'waba') {
        throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
          message: `Modelos de mensagem (templates) existem apenas em conexões WABA; a conexão "${channel.name}" é ${channel.type}.`,
        });
      }
      const warning = await this.channelWarning(ticket);
      const draft = await templateDraft(
        this.deps.dataSource,
        { tenantId: ticket.tenantId, id: channel.id },
        { name: input.name, language: input.language, variables: input.variables, clientId },
        { lastError: warning?.message ?? null },
      );
      return await this.store(auth, ticket, [draft], warning);
    } catch (refusal) {
      // A retry of a send already stored answers the stored message (as send() does).
      const stored = input.clientId && refusal instanceof AppError ? await this.storedSend(ticket, input.clientId) : null;
      if (!stored) throw refusal;
      return this.answer({ ids: stored, created: false, warning: null });
    }
  }

  /**
   * POST /forward-messages/: copies up to 10 messages the caller may see into the contact's
   * active ticket (created open for the caller when there is none), as new outbound messages
   * on the channel of the first message's ticket (else the tenant's default channel).
   */
  async forward(auth: AuthContext, input: ForwardMessagesInput): Promise<ForwardMessagesResponse> {
    const viewer = await this.access.viewer(auth);
    const [contact] = (await this.deps.dataSource.query(`SELECT id, "isGroup" FROM contacts WHERE id = $1 AND "tenantId" = $2`, [
      input.contact,
      auth.tenantId,
    ])) as { id: number; isGroup: boolean }[];
    if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
    const ids = [...new Set(input.messages)];
    const rows = await selectMessagesByIds(this.deps.dataSource, ids);
    if (rows.length !== ids.length || rows.some((r) => r.tenantId !== auth.tenantId)) throw messageNotFound();
    const sourceTickets = new Map<number, MessageTicket>();
    for (const row of rows) {
      if (!sourceTickets.has(row.ticketId)) {
        // Through the message: a message on a hidden ticket is as unknown as another tenant's.
        sourceTickets.set(row.ticketId, (await this.access.message(auth, Number(row.id), { viewer })).ticket);
      }
      if (row.isPrivate || row.isDeleted) {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'messages', message: 'notas privadas e mensagens apagadas não podem ser encaminhadas' }],
        });
      }
    }
    const stored = await this.deps.dataSource.query(`SELECT id, "mediaPath" FROM messages WHERE id = ANY($1::bigint[])`, [ids]);
    const pathOf = new Map((stored as { id: string; mediaPath: string | null }[]).map((r) => [Number(r.id), r.mediaPath]));
    const channel = await this.forwardChannel(auth.tenantId, sourceTickets.get(rows[0].ticketId)?.whatsappId ?? null);
    const now = this.deps.clock.now();
    const { ticketId, ids: created } = await this.deps.events.transaction(async (tx, emit) => {
      const upserted = await upsertActiveTicket(tx, {
        tenantId: auth.tenantId,
        contactId: contact.id,
        channelId: channel?.id ?? null,
        channelType: channel?.type ?? null,
        isGroup: contact.isGroup,
        userId: auth.userId,
        status: 'open',
        actorUserId: auth.userId,
      });
      const target = await loadTicket(tx, upserted.ticket.id);
      if (!target) throw new AppError('ERR_CREATING_TICKET');
      const newIds: number[] = [];
      for (const row of rows) {
        const { id } = await insertOutbound(
          tx,
          target,
          auth.userId,
          {
            body: row.body,
            mediaType: row.mediaType === 'interactive' || row.mediaType === 'template' ? 'chat' : row.mediaType,
            mediaPath: pathOf.get(Number(row.id)) ?? null,
            mediaName: row.mediaName,
            mimeType: row.mimeType,
            clientId: serverClientId('fwd'),
            isPrivate: false,
            status: 'pending',
            dataJson: { forwardedFrom: Number(row.id) },
          },
          now,
        );
        newIds.push(id);
      }
      const last = rows[rows.length - 1];
      await touchTicketForOutbound(tx, target.id, { ...last, isPrivate: false }, now);
      await emitTicketChanged(tx, emit, target.id, upserted.created ? 'create' : 'update');
      await emitMessages(tx, emit, target, 'create', newIds);
      return { ticketId: target.id, ids: newIds };
    });
    for (const id of created) await this.delivery.enqueue(id);
    return { ticketId, messages: (await selectMessagesByIds(this.deps.dataSource, created)).map(presentMessage) };
  }

  /** POST /messages/{id}/retry: a failed message goes back to pending, with its tries reset. */
  async retry(auth: AuthContext, messageId: number): Promise<MessageDto> {
    const { message, ticket } = await this.access.message(auth, messageId);
    if (message.status !== 'failed' && !(message.status === 'pending' && message.lastError !== null)) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'id', message: 'só mensagens não entregues podem ser reenviadas' }],
      });
    }
    const now = this.deps.clock.now();
    await this.deps.events.transaction(async (tx, emit) => {
      await tx.query(
        `UPDATE messages SET status = 'pending', ack = ${ACK_BY_STATUS.pending}, "sendAttempts" = 0, "nextRetryAt" = $2,
                "lastError" = NULL, unconfirmed = false, "sendClaimedAt" = NULL, "updatedAt" = now()
          WHERE id = $1 AND status IN ('failed', 'pending')`,
        [message.id, now],
      );
      await emitMessages(tx, emit, ticket, 'update', [Number(message.id)]);
    });
    await this.delivery.enqueue(Number(message.id), { attempt: Date.now() });
    return this.present(Number(message.id));
  }

  /**
   * POST /messages/editMessage: a sent text changed for everyone through the channel. A channel
   * that cannot edit (the official API) answers its error and nothing changes here. Private
   * notes are edited in place.
   */
  async edit(auth: AuthContext, input: EditMessageInput): Promise<MessageDto> {
    const { message, ticket, viewer } = await this.access.message(auth, input.messageId);
    authorizeMessageChange(auth, viewer, message);
    if (message.isDeleted)
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'messageId', message: 'a mensagem foi apagada' }] });
    if (message.status === 'scheduled') {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'messageId', message: 'altere mensagens agendadas com PATCH /messages/{id}' }],
      });
    }
    const body = input.body;
    if (!message.isPrivate) {
      if (!message.messageId || message.whatsappId === null) {
        throw new AppError('ERR_VALIDATION', { fields: [{ path: 'messageId', message: 'a mensagem ainda não foi enviada' }] });
      }
      const { adapter, target } = await this.channelFor(ticket, message.whatsappId);
      await this.callProvider(() => adapter.editMessage(target, message.messageId as string, body));
    }
    await this.deps.events.transaction(async (tx, emit) => {
      await tx.query(
        `UPDATE messages
            SET body = $2, "isEdited" = true, "updatedAt" = now(),
                "dataJson" = jsonb_set(COALESCE("dataJson", '{}'::jsonb), '{editHistory}',
                  COALESCE("dataJson"->'editHistory', '[]'::jsonb) || jsonb_build_array(jsonb_build_object('body', body, 'editedAt', $3::text)))
          WHERE id = $1`,
        [message.id, body, this.deps.clock.now().toISOString()],
      );
      await emitMessages(tx, emit, ticket, 'update', [Number(message.id)]);
    });
    return this.present(Number(message.id));
  }

  /**
   * DELETE /messages: delete for everyone. A message the customer never got (pending, failed,
   * a private note) is withdrawn here only (a pending one is not sent); a scheduled one is
   * canceled; a delivered one goes through the channel, refused after
   * MESSAGE_DELETE_WINDOW_HOURS (ERR_DELETE_WAPP_MSG). The row stays, with isDeleted.
   */
  async remove(auth: AuthContext, input: { id: number; messageId?: string | null }): Promise<MessageDto> {
    const { message, ticket, viewer } = await this.access.message(auth, input.id);
    if (input.messageId && message.messageId && input.messageId !== message.messageId) throw messageNotFound();
    authorizeMessageChange(auth, viewer, message);
    if (message.isDeleted) return presentMessage(message);
    const reachedCustomer =
      !message.isPrivate && message.messageId !== null && ['sent', 'delivered', 'read'].includes(message.status);
    if (reachedCustomer) {
      const sentAt = message.timestamp !== null ? Number(message.timestamp) * 1000 : new Date(message.createdAt).getTime();
      if (this.deps.clock.now().getTime() - sentAt > MESSAGE_DELETE_WINDOW_HOURS * 3600_000)
        throw new AppError('ERR_DELETE_WAPP_MSG');
      const { adapter, target } = await this.channelFor(ticket, message.whatsappId);
      await this.callProvider(() => adapter.deleteMessage(target, message.messageId as string));
    }
    await this.deps.events.transaction(async (tx, emit) => {
      await tx.query(
        `UPDATE messages
            SET "isDeleted" = true, "nextRetryAt" = NULL, "updatedAt" = now(),
                status = CASE WHEN status IN ('pending', 'scheduled', 'failed') THEN 'canceled' ELSE status END
          WHERE id = $1`,
        [message.id],
      );
      await emitMessages(tx, emit, ticket, 'delete', [Number(message.id)]);
      if (message.status === 'scheduled') await closeEmptyHoldingTicket(tx, emit, ticket.id);
    });
    return this.present(Number(message.id));
  }

  /**
   * POST /messages/reactionMessage: the agent's reaction (one per message, as on WhatsApp; an
   * empty emoji removes it) goes through the channel, then is kept in `reactions`.
   */
  async react(auth: AuthContext, input: ReactionMessageInput): Promise<MessageDto> {
    const { message, ticket } = await this.access.message(auth, input.messageId);
    if (message.isPrivate || !message.messageId || message.isDeleted) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'messageId', message: 'só é possível reagir a mensagens enviadas ou recebidas' }],
      });
    }
    const { adapter, target } = await this.channelFor(ticket, message.whatsappId);
    await this.callProvider(() => adapter.sendReaction(target, message.messageId as string, input.emoji));
    const mine: MessageReaction = {
      emoji: input.emoji,
      fromMe: true,
      userId: auth.userId,
      timestamp: Math.floor(this.deps.clock.now().getTime() / 1000),
    };
    await this.deps.events.transaction(async (tx, emit) => {
      // Rewritten in SQL so a customer's reaction arriving meanwhile is not lost.
      await tx.query(
        `UPDATE messages
            SET reactions = (SELECT COALESCE(jsonb_agg(r), '[]'::jsonb) FROM jsonb_array_elements(COALESCE(reactions, '[]'::jsonb)) r
                              WHERE COALESCE((r->>'fromMe')::boolean, false) = false)
                            || CASE WHEN $2::text = '' THEN '[]'::jsonb ELSE jsonb_build_array($3::jsonb) END,
                "updatedAt" = now()
          WHERE id = $1`,
        [message.id, input.emoji, JSON.stringify(mine)],
      );
      await emitMessages(tx, emit, ticket, 'update', [Number(message.id)]);
    });
    return this.present(Number(message.id));
  }

  /**
   * The group of a group ticket and its channel's groups API, for POST /messages/mentionMessage,
   * /messages/mentionAllMessage and /messages/listParticipants. A ticket that is not a group is
   * refused (400 naming ticketId); a channel whose provider has no groups (Cloud API, Telegram …)
   * answers ERR_CHANNEL_OPERATION_UNSUPPORTED saying so.
   */
  private async groupOf(auth: AuthContext, ticketId: number, what: string) {
    const { ticket } = await this.access.ticket(auth, ticketId);
    if (!ticket.isGroup) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'ticketId', message: `${what} só é possível em atendimentos de grupo` }],
      });
    }
    const channel = ticket.whatsappId === null ? null : await loadChannel(this.deps.dataSource, ticket.tenantId, ticket.whatsappId);
    const adapter = channel ? await (async () => this.adapters()?.adapterFor(channel))().catch(() => undefined) : undefined;
    if (!channel || !adapter?.groups) {
      throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
        message: `${what} precisa de uma conexão com suporte a grupos (por QR code); a conexão ${channel ? `"${channel.name}" (${channel.type})` : 'deste atendimento'} não oferece.`,
      });
    }
    const target = await resolveTarget(this.deps.dataSource, channel, ticket.contactId, true);
    if (!target) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    return { ticket, channel, groups: adapter.groups, groupId: target.to };
  }

  /** A text to a group that mentions participants (provider ids or numbers), through the outbound queue. */
  private async sendWithMentions(
    auth: AuthContext,
    ticket: MessageTicket,
    input: { body: string; clientId?: string },
    mentions: string[],
  ): Promise<SendOutcome> {
    assertActive(ticket);
    const warning = await this.channelWarning(ticket);
    return this.store(
      auth,
      ticket,
      [
        {
          body: input.body,
          mediaType: 'chat',
          clientId: input.clientId ?? serverClientId(),
          isPrivate: false,
          status: 'pending',
          dataJson: { mentions },
          lastError: warning?.message ?? null,
        },
      ],
      warning,
    );
  }

  /** POST /messages/mentionMessage: a text that mentions the given numbers. */
  async mention(auth: AuthContext, input: MentionMessageInput): Promise<SendOutcome> {
    const { ticket } = await this.groupOf(auth, input.ticketId, 'Mencionar participantes');
    return this.sendWithMentions(auth, ticket, input, [...new Set(input.mentions)]);
  }

  /** POST /messages/mentionAllMessage: a text that mentions every participant (read from the phone now). */
  async mentionAll(auth: AuthContext, input: MentionAllMessageInput): Promise<SendOutcome> {
    const { ticket, groups, groupId } = await this.groupOf(auth, input.ticketId, 'Mencionar todos os participantes');
    assertActive(ticket);
    const group = await this.callProvider(() => groups.get(groupId));
    const mentions = group.participants.map((p) => p.id);
    if (mentions.length === 0) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'ticketId', message: 'o grupo não tem participantes' }] });
    }
    return this.sendWithMentions(auth, ticket, input, mentions);
  }

  /** POST /messages/listParticipants: the group's participants as the phone reports them now. */
  async listParticipants(auth: AuthContext, ticketId: number): Promise<ListParticipantsResponse> {
    const { groups, groupId } = await this.groupOf(auth, ticketId, 'Listar participantes');
    const group = await this.callProvider(() => groups.get(groupId));
    return {
      groupId: group.id,
      subject: group.subject,
      participants: group.participants.map((p) => ({ id: p.id, number: p.phone, admin: p.admin })),
    };
  }

  /**
   * POST /messages/syncOld and /messages/syncOldByUser: importing a channel's old history
   * needs a provider that keeps it (QR-code sessions, whose adapter has `requestHistory`); the
   * official API has no history. A QR-code channel asks the phone for up to `limit` older
   * messages of the ticket's chat (or of the channel's 20 most recent tickets' chats), before
   * the oldest message stored; they arrive through the inbound pipeline.
   */
  async syncOld(
    auth: AuthContext,
    input: { whatsappId?: number; ticketId?: number; limit?: number },
  ): Promise<{ requested: number; limit: number }> {
    let channel: Awaited<ReturnType<typeof loadChannel>> = null;
    let ticketIds: number[] = [];
    if (input.ticketId !== undefined) {
      const { ticket } = await this.access.ticket(auth, input.ticketId);
      if (ticket.whatsappId !== null) channel = await loadChannel(this.deps.dataSource, auth.tenantId, ticket.whatsappId);
      ticketIds = [ticket.id];
    }
    if (input.whatsappId !== undefined) {
      channel = await loadChannel(this.deps.dataSource, auth.tenantId, input.whatsappId);
      if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    }
    const adapter = channel ? await this.adapters()?.adapterFor(channel) : undefined;
    const history = adapter as (ChannelAdapter & Partial<HistoryAdapter>) | undefined;
    if (!channel || !history || typeof history.requestHistory !== 'function') {
      throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
        message: `A sincronização do histórico de mensagens não está disponível para ${channel ? `conexões ${channel.type}` : 'esta conexão'}.`,
      });
    }
    if (!input.limit) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'limit', message: 'informe quantas mensagens importar (número positivo)' }] });
    }
    if (input.ticketId === undefined) {
      const rows: { id: number }[] = await this.deps.dataSource.query(
        `SELECT id FROM tickets WHERE "tenantId" = $1 AND "whatsappId" = $2 ORDER BY "lastMessageAt" DESC NULLS LAST, id DESC LIMIT 20`,
        [auth.tenantId, channel.id],
      );
      ticketIds = rows.map((r) => r.id);
    }
    const anchors: { target: OutboundTarget; providerMessageId: string; timestamp: number }[] = [];
    for (const id of ticketIds) {
      const ticket = await loadTicket(this.deps.dataSource, id);
      if (!ticket) continue;
      const [oldest] = (await this.deps.dataSource.query(
        `SELECT "messageId", COALESCE(timestamp, extract(epoch FROM "createdAt")::bigint) AS ts FROM messages
          WHERE "ticketId" = $1 AND "tenantId" = $2 AND "messageId" IS NOT NULL AND "whatsappId" = $3
          ORDER BY COALESCE(timestamp, extract(epoch FROM "createdAt")::bigint), id LIMIT 1`,
        [id, auth.tenantId, channel.id],
      )) as { messageId: string; ts: string | number }[];
      const target = oldest ? await resolveTarget(this.deps.dataSource, channel, ticket.contactId, ticket.isGroup) : null;
      if (oldest && target) anchors.push({ target, providerMessageId: oldest.messageId, timestamp: Number(oldest.ts) });
    }
    const requested = await this.callProvider(() => history.requestHistory!(input.limit!, anchors));
    return { requested, limit: input.limit };
  }

  /**
   * The messages a send with this client id already wrote (its own row and its files' `#n`
   * rows, in order), or null. One used on another ticket is refused, as insertOutbound does.
   */
  private async storedSend(ticket: MessageTicket, clientId: string): Promise<number[] | null> {
    const ids = [clientId, ...Array.from({ length: MESSAGE_MAX_FILES - 1 }, (_, i) => `${clientId}#${i + 1}`)];
    const rows = (await this.deps.dataSource.query(
      `SELECT id, "ticketId" FROM messages WHERE "tenantId" = $1 AND "clientId" = ANY($2::text[]) ORDER BY id`,
      [ticket.tenantId, ids],
    )) as { id: string; ticketId: number }[];
    if (rows.length === 0) return null;
    if (rows.some((r) => Number(r.ticketId) !== ticket.id)) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'clientId', message: 'já usado por outra mensagem' }] });
    }
    return rows.map((r) => Number(r.id));
  }

  /** Writes the drafts (idempotent on their client ids), then asks for their delivery. */
  private async store(
    auth: AuthContext,
    ticket: MessageTicket,
    drafts: OutboundDraft[],
    warning: DeliveryWarning | null,
  ): Promise<SendOutcome> {
    return this.answer(await this.write(auth, ticket, drafts, warning));
  }

  private async write(
    auth: AuthContext,
    ticket: MessageTicket,
    drafts: OutboundDraft[],
    warning: DeliveryWarning | null,
  ): Promise<Written> {
    const now = this.deps.clock.now();
    const results = await this.deps.events.transaction(async (tx, emit) => {
      const rows: { id: number; created: boolean }[] = [];
      for (const draft of drafts) rows.push(await insertOutbound(tx, ticket, auth.userId, draft, now));
      const createdIds = rows.filter((r) => r.created).map((r) => r.id);
      if (createdIds.length > 0) {
        const first = drafts[0];
        const preview = {
          body: first.body,
          mediaType: first.mediaType,
          mediaName: first.mediaName ?? null,
          isPrivate: first.isPrivate,
        };
        // A scheduled message is not the ticket's last message until it is sent.
        if (first.status !== 'scheduled') {
          await touchTicketForOutbound(tx, ticket.id, preview, now);
          if (!first.isPrivate) await emitTicketChanged(tx, emit, ticket.id);
        }
        await emitMessages(tx, emit, ticket, 'create', createdIds);
      }
      return rows;
    });
    return { ids: results.map((r) => r.id), created: results.some((r) => r.created), warning };
  }

  private async answer(written: Written, enqueue = true): Promise<SendOutcome> {
    const rows = await selectMessagesByIds(this.deps.dataSource, written.ids);
    if (written.created && enqueue)
      for (const row of rows) if (row.status === 'pending') await this.delivery.enqueue(Number(row.id));
    return {
      status: written.created ? 201 : 200,
      body: { messages: rows.map(presentMessage), created: written.created, warning: written.created ? written.warning : null },
    };
  }

  /** Why a new message cannot leave right now (it stays pending), or null. */
  private async channelWarning(ticket: MessageTicket): Promise<DeliveryWarning | null> {
    const reason = await (async () => {
      if (ticket.whatsappId === null) return 'Atendimento sem conexão.';
      const channel = await loadChannel(this.deps.dataSource, ticket.tenantId, ticket.whatsappId);
      if (!channel) return 'Conexão não encontrada.';
      if (channel.status !== 'CONNECTED') return 'Sessão não inicializada.';
      return null;
    })();
    return reason ? { error: 'ERR_WAPP_NOT_INITIALIZED', message: waitingForChannelText(reason) } : null;
  }

  /** The channel of a message that already reached the customer, connected, and the customer's address. */
  private async channelFor(
    ticket: MessageTicket,
    channelId: number | null,
  ): Promise<{ adapter: ChannelAdapter; target: OutboundTarget }> {
    const id = channelId ?? ticket.whatsappId;
    const channel = id === null ? null : await loadChannel(this.deps.dataSource, ticket.tenantId, id);
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    if (channel.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const source = this.adapters();
    if (!source) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const adapter = await source.adapterFor(channel);
    const target = await resolveTarget(this.deps.dataSource, channel, ticket.contactId, ticket.isGroup);
    if (!target) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    return { adapter, target };
  }

  /** A provider call made while the agent waits: its refusal is the answer, and nothing changes. */
  private async callProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof ChannelSendError) {
        throw err.retryable
          ? new AppError('ERR_CHANNEL_UNAVAILABLE', { message: `${err.message} Tente novamente em alguns segundos.` })
          : new AppError('ERR_SENDING_WAPP_MSG', { message: `Erro ao enviar a mensagem: ${err.message}`, status: 400 });
      }
      throw err;
    }
  }

  private async assertQuotable(ticket: MessageTicket, quotedMsgId: number): Promise<void> {
    // Quoting across tickets would copy another conversation's text into this one.
    const [row] = (await this.deps.dataSource.query(`SELECT id FROM messages WHERE id = $1 AND "ticketId" = $2`, [
      quotedMsgId,
      ticket.id,
    ])) as { id: string }[];
    if (!row)
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'quotedMsgId', message: 'mensagem citada não encontrada neste atendimento' }],
      });
  }

  private async forwardChannel(tenantId: number, channelId: number | null): Promise<{ id: number; type: string } | null> {
    const rows = (await this.deps.dataSource.query(
      `SELECT id, type FROM channels WHERE "tenantId" = $1 AND (id = $2 OR "isDefault") ORDER BY (id = $2) DESC LIMIT 1`,
      [tenantId, channelId ?? 0],
    )) as { id: number; type: string }[];
    return rows[0] ?? null;
  }

  private async present(id: number): Promise<MessageDto> {
    const [row] = await selectMessagesByIds(this.deps.dataSource, [id]);
    return presentMessage(row as MessageRow);
  }
}

/**
 * The text of each message to write: one per file (or one without files). A repeated `body`
 * (multipart) gives one text per file; otherwise the text is the first file's caption. A text
 * equal to its file's name is the file's label (the anchor client sends each file's name as
 * its `body`), not a caption: the name is kept as the file's name and no caption is sent.
 */
function textsFor(input: SendMessageInput, files: readonly ReceivedMedia[]): string[] {
  if (input.bodies && files.length === 0 && input.bodies.length > 1) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'sem arquivos, envie um só texto' }] });
  }
  if (input.bodies && files.length > 0 && input.bodies.length !== files.length) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'envie um texto por arquivo, na ordem dos arquivos' }] });
  }
  if (files.length === 0) return [input.bodies?.[0] ?? input.body ?? ''];
  const texts = input.bodies ?? files.map((_, i) => (i === 0 ? (input.body ?? '') : ''));
  return files.map((file, i) => (texts[i] === file.fileName ? '' : texts[i]));
}

function assertActive(ticket: MessageTicket): void {
  if (!ACTIVE_TICKET.has(ticket.status)) {
    throw new AppError('ERR_VALIDATION', {
      fields: [{ path: 'ticketId', message: 'o atendimento está encerrado; reabra-o para enviar mensagens' }],
    });
  }
}
