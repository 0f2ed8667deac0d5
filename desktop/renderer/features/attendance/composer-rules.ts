/**
 * The agent console composer's rules (spec sections 5 and 9), pure so they are unit-tested without
 * a browser: interactive buttons, the schedule dialog, forwarding, the slash quick replies, emoji
 * insertion, the per-message menu, contact cards and microphone errors. Errors are i18n keys
 * (`chatTools.*`); the components translate them.
 */
import {
  CONTACT_SEARCH_MIN_CHARS,
  FORWARD_MAX_MESSAGES,
  INTERACTIVE_BUTTON_MAX,
  INTERACTIVE_TEXT_MAX,
  INTERACTIVE_TEXT_MIN,
} from '@shared/limits';
import { resolveQuickMessageCommand, type QuickMessageCandidate } from '@shared/quick-message-command';
import type { Message } from '../../api/messages.api';
import { wallTimeOf } from '../schedules/schedule-time';

/** Reply buttons per interactive message (WhatsApp Cloud API; the server refuses more). */
export const INTERACTIVE_BUTTONS_MAX_COUNT = 3;

export interface ButtonFormErrors {
  /** Key for the text, or null when valid. */
  body: string | null;
  /** One key (or null) per button title, in order. */
  buttons: (string | null)[];
  /** Key when the number of buttons is wrong. */
  count: string | null;
  valid: boolean;
}

/**
 * Interactive message (spec section 5): text of 1 to 60 characters, each button at most 20
 * characters and not empty, button texts unique (ignoring case and surrounding spaces, as the
 * server compares them), 1 to 3 buttons.
 */
export function validateInteractive(body: string, titles: readonly string[]): ButtonFormErrors {
  const text = body.trim();
  const bodyError =
    text.length < INTERACTIVE_TEXT_MIN
      ? 'chatTools.buttons.textRequired'
      : text.length > INTERACTIVE_TEXT_MAX
        ? 'chatTools.buttons.textTooLong'
        : null;
  const seen = new Set<string>();
  const buttons = titles.map((raw) => {
    const title = raw.trim();
    if (title.length === 0) return 'chatTools.buttons.titleRequired';
    if (title.length > INTERACTIVE_BUTTON_MAX) return 'chatTools.buttons.titleTooLong';
    const key = title.toLocaleLowerCase('pt-BR');
    if (seen.has(key)) return 'chatTools.buttons.titleDuplicate';
    seen.add(key);
    return null;
  });
  const count =
    titles.length < 1 || titles.length > INTERACTIVE_BUTTONS_MAX_COUNT ? 'chatTools.buttons.count' : null;
  return { body: bodyError, buttons, count, valid: !bodyError && !count && buttons.every((b) => b === null) };
}

/** The body POST /sendButton takes, once valid. */
export const interactivePayload = (body: string, titles: readonly string[]) => ({
  body: body.trim(),
  buttons: titles.map((title) => ({ title: title.trim() })),
});

// ---------------------------------------------------------------------------------------------
// Scheduled messages

/** dd/MM/yyyy HH:mm of a scheduled message in `zone` (spec section 5 date-time format). */
export function formatScheduleDate(iso: string, zone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const [date, time] = wallTimeOf(d, zone).split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time}`;
}

// ---------------------------------------------------------------------------------------------
// Forwarding

export interface ForwardToggle {
  selected: number[];
  /** Key of the refusal ('Permitido no máximo 10 mensagens.'), or null. */
  error: string | null;
}

/** Checks or unchecks a message; an 11th is refused and the selection stays as it was. */
export function toggleForwardSelection(selected: readonly number[], id: number): ForwardToggle {
  if (selected.includes(id)) return { selected: selected.filter((x) => x !== id), error: null };
  if (selected.length >= FORWARD_MAX_MESSAGES) return { selected: [...selected], error: 'chatTools.forward.limit' };
  return { selected: [...selected, id], error: null };
}

/** Forwarding needs 1 to 10 messages and exactly one destination contact. */
export function validateForward(selected: readonly number[], contactId: number | null): string | null {
  if (selected.length === 0) return 'chatTools.forward.noneSelected';
  if (selected.length > FORWARD_MAX_MESSAGES) return 'chatTools.forward.limit';
  if (contactId === null) return 'chatTools.forward.contactRequired';
  return null;
}

/** Contact search (forward, contact card) starts at 2 letters. */
export const contactSearchReady = (term: string) => term.trim().length >= CONTACT_SEARCH_MIN_CHARS;

// ---------------------------------------------------------------------------------------------
// Composer submit: slash quick replies

export type ComposerIntent = { kind: 'quickCommand' } | { kind: 'empty' } | { kind: 'send' };

/**
 * What pressing send does (spec section 5 "Quick message"): a leading slash with no spaces names
 * a quick message; nothing typed and no file is an error; anything else is sent as typed.
 */
export function composerIntent(text: string, fileCount: number): ComposerIntent {
  const trimmed = text.trim();
  if (trimmed.startsWith('/') && !/\s/.test(trimmed)) return { kind: 'quickCommand' };
  if (!trimmed && fileCount === 0) return { kind: 'empty' };
  return { kind: 'send' };
}

export type QuickReplyOutcome<T> =
  | { kind: 'error'; key: string; values?: Record<string, string> }
  | { kind: 'choose'; options: T[] }
  | { kind: 'send'; quickMessage: T };

/** The slash command against the tenant's quick replies: an error, a chooser, or one to send. */
export function quickReplyOutcome<T extends QuickMessageCandidate & { message?: string | null; mediaName?: string | null }>(
  text: string,
  quickReplies: readonly T[],
): QuickReplyOutcome<T> {
  const command = resolveQuickMessageCommand(text, quickReplies);
  switch (command.kind) {
    case 'noMatch':
      return { kind: 'error', key: 'attendance.quick.noMatch', values: { key: command.query } };
    case 'choose':
      return { kind: 'choose', options: command.options };
    case 'match':
      return { kind: 'send', quickMessage: command.quickMessage };
    case 'empty':
      return { kind: 'error', key: 'attendance.emptyMessage' };
    default:
      return { kind: 'error', key: 'attendance.quick.noMatch', values: { key: text.trim().slice(1) } };
  }
}

// ---------------------------------------------------------------------------------------------
// Emoji

/** A small picker: no dependency, the emojis agents use most. */
export const EMOJIS = [
  '😀', '😃', '😄', '😁', '😊', '🙂', '😉', '😍', '😘', '😎', '🤔', '😅', '😂', '🤣', '😢', '😭',
  '😮', '😡', '🙏', '👍', '👎', '👏', '🙌', '👋', '💪', '🤝', '❤️', '💙', '💚', '⭐', '🔥', '🎉',
  '✅', '❌', '⚠️', '📞', '📦', '🚚', '💰', '🕒',
] as const;

/** Reactions offered by the per-message menu. */
export const REACTION_EMOJIS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/** Puts `insert` in place of the selection [start, end) and returns the text and the caret after it. */
export function insertAtSelection(text: string, start: number | null, end: number | null, insert: string) {
  const from = Math.max(0, Math.min(start ?? text.length, text.length));
  const to = Math.max(from, Math.min(end ?? from, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}

// ---------------------------------------------------------------------------------------------
// Per-message menu

export type MessageAction = 'reply' | 'react' | 'edit' | 'delete' | 'forward' | 'cancelSchedule';

/**
 * What the menu offers for a message (docs/api.md Messages): reply to anything shown; react to a
 * message the provider knows (sent or received, not a note); edit our own text once sent (a note
 * at any time); delete our own; forward anything but notes, deleted and scheduled messages;
 * cancel a scheduled one.
 */
export function messageActionsOf(
  message: Pick<Message, 'fromMe' | 'isDeleted' | 'isPrivate' | 'status' | 'mediaType' | 'messageId'>,
): MessageAction[] {
  if (message.isDeleted || message.status === 'canceled') return [];
  if (message.status === 'scheduled') return ['cancelSchedule'];
  const actions: MessageAction[] = ['reply'];
  const known = Boolean(message.messageId) && !message.isPrivate;
  if (known) actions.push('react');
  const sentByUs = message.fromMe && (message.isPrivate || ['sent', 'delivered', 'read'].includes(message.status));
  if (sentByUs && (message.mediaType === 'chat' || message.mediaType === 'text' || message.isPrivate)) actions.push('edit');
  if (message.fromMe) actions.push('delete');
  if (!message.isPrivate) actions.push('forward');
  return actions;
}

/** Whether a message can be ticked in the forward mode. */
export const isForwardable = (message: Pick<Message, 'isDeleted' | 'isPrivate' | 'status'>) =>
  !message.isDeleted && !message.isPrivate && message.status !== 'scheduled' && message.status !== 'canceled';

// ---------------------------------------------------------------------------------------------
// Contact card

const vcardEscape = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/([,;])/g, '\\$1');

/** A vCard 3.0 of a contact, sent as a .vcf file (the server has no contact-card message route). */
export function buildVCard(contact: { name: string; number?: string | null; email?: string | null }): string {
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${vcardEscape(contact.name)}`, `N:${vcardEscape(contact.name)};;;;`];
  const digits = (contact.number ?? '').replace(/\D/g, '');
  if (digits) lines.push(`TEL;type=CELL;waid=${digits}:+${digits}`);
  if (contact.email) lines.push(`EMAIL:${vcardEscape(contact.email)}`);
  lines.push('END:VCARD');
  return `${lines.join('\r\n')}\r\n`;
}

export const vcardFileName = (name: string) =>
  `${name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'contato'}.vcf`;

// ---------------------------------------------------------------------------------------------
// Audio recording

/** Key of the message for a getUserMedia / MediaRecorder failure. */
export function microphoneErrorKey(error: unknown): string {
  const name = (error as { name?: string } | null)?.name ?? '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'chatTools.audio.denied';
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return 'chatTools.audio.noDevice';
  return 'chatTools.audio.failed';
}

/** The first recording format the browser supports (ogg/opus is what WhatsApp plays as a voice note). */
export function pickAudioMimeType(isSupported: (type: string) => boolean): string {
  for (const type of ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm', 'audio/mp4']) if (isSupported(type)) return type;
  return '';
}

const pad = (n: number) => String(n).padStart(2, '0');
const toDateField = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** A recording's file name, in the agent's own clock (the file is theirs, not the tenant's). */
export const audioFileName = (mimeType: string, at: Date) => {
  const ext = mimeType.includes('ogg') ? 'ogg' : mimeType.includes('mp4') ? 'm4a' : 'webm';
  return `audio-${toDateField(at)}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}.${ext}`;
};

export const formatDuration = (seconds: number) => `${pad(Math.floor(seconds / 60))}:${pad(Math.floor(seconds % 60))}`;
