import type { ContactDto } from '@shared/schemas/contacts';
import type { MessageDto } from '@shared/schemas/messages';
import type { TicketDto } from '@shared/schemas/tickets';

/**
 * Server-shaped objects for the cache's tests and benchmark: complete DTOs (the JSON stored per
 * row is as large as the real one), with the fields under test overridable.
 */

const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');

/** A time `seconds` after a fixed origin, as the server formats it. */
export function isoAt(seconds: number): string {
  return new Date(BASE_MS + seconds * 1000).toISOString();
}

export function contactFixture(id: number, overrides: Partial<ContactDto> = {}): ContactDto {
  return {
    id,
    name: `Contato ${id}`,
    number: `5511${String(900000000 + id)}`,
    email: null,
    cpfCnpj: null,
    birthday: null,
    firstName: null,
    lastName: null,
    businessName: null,
    messengerId: null,
    instagramId: null,
    hubWhatsappId: null,
    telegramId: null,
    profilePicUrl: `https://pps.example.com/v/t61/${id}.jpg`,
    isGroup: false,
    kanbanId: null,
    extraInfo: [],
    blockContact: false,
    blockChatbot: false,
    tags: [{ id: 1, name: 'cliente', color: '#1e88e5' }],
    wallets: [],
    createdAt: isoAt(0),
    updatedAt: isoAt(id),
    ...overrides,
  };
}

export function ticketFixture(id: number, overrides: Partial<TicketDto> = {}): TicketDto {
  const contactId = overrides.contactId ?? id;
  const name = overrides.name ?? `Contato ${contactId}`;
  return {
    id,
    protocol: `2026${String(id).padStart(8, '0')}`,
    status: 'open',
    name,
    contactId,
    contact: {
      id: contactId,
      name,
      number: `5511${String(900000000 + contactId)}`,
      profilePicUrl: null,
      tags: [],
      wallets: [],
    },
    userId: 7,
    user: { id: 7, name: 'Agente' },
    queueId: 2,
    queue: { id: 2, name: 'Suporte', color: '#43a047' },
    whatsappId: 3,
    whatsapp: { id: 3, name: 'WhatsApp principal', type: 'waba' },
    channel: 'waba',
    isGroup: false,
    unreadMessages: 0,
    answered: true,
    lastMessage: 'bom dia',
    lastMessageAt: isoAt(id),
    kanbanId: null,
    chatFlowId: null,
    botActive: false,
    demandId: null,
    value: null,
    difyStatus: null,
    lmStatus: null,
    ollamaStatus: null,
    n8nStatus: null,
    typebotStatus: null,
    dialogflowStatus: null,
    chatgptStatus: null,
    closeAt: null,
    closeReason: null,
    ratingRequestedAt: null,
    startedAt: isoAt(0),
    closedAt: null,
    createdAt: isoAt(0),
    updatedAt: isoAt(id),
    ...overrides,
  };
}

export function messageFixture(id: number, ticketId: number, overrides: Partial<MessageDto> = {}): MessageDto {
  const fromMe = overrides.fromMe ?? id % 2 === 0;
  return {
    id,
    messageId: `wamid.HBgM${String(id).padStart(12, '0')}`,
    clientId: null,
    ticketId,
    contactId: ticketId,
    userId: fromMe ? 7 : null,
    whatsappId: 3,
    body: `mensagem ${id}`,
    fromMe,
    mediaType: 'chat',
    mediaName: null,
    mimeType: null,
    mediaUrl: null,
    quotedMsgId: null,
    quotedMsg: null,
    status: fromMe ? 'read' : 'received',
    ack: fromMe ? 3 : 0,
    read: true,
    reactions: [],
    isEdited: false,
    isDeleted: false,
    isSync: false,
    isPrivate: false,
    scheduleDate: null,
    schedule: null,
    sendAttempts: fromMe ? 1 : 0,
    nextRetryAt: null,
    lastError: null,
    buttons: null,
    flags: {
      edited: false,
      deleted: false,
      scheduled: false,
      sync: false,
      undelivered: false,
      retryPending: false,
      unconfirmed: false,
      private: false,
    },
    timestamp: Math.floor(Date.parse(isoAt(id)) / 1000),
    createdAt: isoAt(id),
    updatedAt: isoAt(id),
    ...overrides,
  };
}
