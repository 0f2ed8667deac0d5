import type { ChatConversationDto, ChatMessageDto } from '@shared/schemas/internal-chat';

/** Messages and conversations for the internal chat's unit tests (viewer = user 1). */
export const VIEWER = 1;

export function chatMessage(id: number, over: Partial<ChatMessageDto> = {}): ChatMessageDto {
  return {
    id,
    kind: 'user',
    toId: 2,
    fromUserId: VIEWER,
    fromUserName: 'Eu',
    body: `m${id}`,
    mediaUrl: null,
    mediaName: null,
    mimeType: null,
    replyTo: null,
    ticketId: null,
    clientId: null,
    editedAt: null,
    deletedAt: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, id)).toISOString(),
    read: false,
    readCount: 0,
    ...over,
  };
}

export function conversation(kind: 'user' | 'team', id: number, over: Partial<ChatConversationDto> = {}): ChatConversationDto {
  return {
    kind,
    id,
    name: kind === 'user' ? `Colega ${id}` : `Equipe ${id}`,
    presence: kind === 'user' ? 'offline' : null,
    lastMessage: null,
    unread: 0,
    members: kind === 'team' ? 3 : null,
    ...over,
  };
}
