import type { Message } from '../../api/messages.api';

/** The tick shown beside an outbound message, from its status (preferred) or ack number. */
export type AckMark = 'pending' | 'sent' | 'delivered' | 'read' | 'failed' | 'none';

export function ackMarkOf(message: Pick<Message, 'fromMe' | 'status' | 'ack'>): AckMark {
  if (!message.fromMe) return 'none';
  switch (message.status) {
    case 'failed':
      return 'failed';
    case 'read':
      return 'read';
    case 'delivered':
      return 'delivered';
    case 'sent':
      return 'sent';
    case 'pending':
      return 'pending';
    default:
      break;
  }
  if (message.ack === -1) return 'failed';
  if (message.ack >= 3) return 'read';
  if (message.ack === 2) return 'delivered';
  if (message.ack === 1) return 'sent';
  return 'pending';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy in the agent's local time zone (spec section 5). */
export function formatDay(date: Date): string {
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

export const formatTime = (date: Date): string => `${pad(date.getHours())}:${pad(date.getMinutes())}`;

export function messageDate(message: Pick<Message, 'timestamp' | 'createdAt'>): Date {
  return message.timestamp ? new Date(message.timestamp * 1000) : new Date(message.createdAt);
}

export type ThreadItem = { kind: 'day'; key: string; label: string } | { kind: 'message'; key: string; message: Message };

/** Oldest-first rows of the thread with a date separator before each new day. */
export function threadItems(newestFirst: readonly Message[]): ThreadItem[] {
  const items: ThreadItem[] = [];
  let lastDay = '';
  for (let i = newestFirst.length - 1; i >= 0; i--) {
    const message = newestFirst[i];
    const day = formatDay(messageDate(message));
    if (day !== lastDay) {
      items.push({ kind: 'day', key: `day-${day}`, label: day });
      lastDay = day;
    }
    items.push({ kind: 'message', key: `m-${message.id}`, message });
  }
  return items;
}

/** Merges a message event into the cached newest-first thread (by id, else by clientId). */
export function upsertMessage(messages: Message[], message: Message): Message[] {
  const index = messages.findIndex(
    (m) => m.id === message.id || (message.clientId !== null && m.clientId !== null && m.clientId === message.clientId),
  );
  if (index >= 0) {
    // A send's answer can arrive after the socket already told a later state (failed, sent): keep the newer.
    const known = messages[index];
    if (known.updatedAt && message.updatedAt && Date.parse(known.updatedAt) > Date.parse(message.updatedAt)) return messages;
    messages[index] = message;
    return messages;
  }
  let at = messages.findIndex((m) => m.id < message.id);
  if (at < 0) at = messages.length;
  messages.splice(at, 0, message);
  return messages;
}
