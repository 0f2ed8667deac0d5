import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../api/messages.api';
import {
  audioFileName,
  buildVCard,
  composerIntent,
  contactSearchReady,
  formatScheduleDate,
  insertAtSelection,
  interactivePayload,
  isForwardable,
  messageActionsOf,
  microphoneErrorKey,
  pickAudioMimeType,
  quickReplyOutcome,
  toggleForwardSelection,
  validateForward,
  validateInteractive,
  vcardFileName,
} from './composer-rules';

describe('interactive buttons dialog', () => {
  it('accepts text of 1 to 60 characters and up to 3 distinct buttons of at most 20', () => {
    const r = validateInteractive('x'.repeat(60), ['Sim', 'Não', 'b'.repeat(20)]);
    expect(r).toEqual({ body: null, buttons: [null, null, null], count: null, valid: true });
    expect(validateInteractive('a', ['ok']).valid).toBe(true);
  });

  it('refuses an empty or blank text and one over 60 characters', () => {
    expect(validateInteractive('', ['ok']).body).toBe('chatTools.buttons.textRequired');
    expect(validateInteractive('   ', ['ok']).body).toBe('chatTools.buttons.textRequired');
    const long = validateInteractive('x'.repeat(61), ['ok']);
    expect(long.body).toBe('chatTools.buttons.textTooLong');
    expect(long.valid).toBe(false);
    // Surrounding spaces do not count (the server trims too).
    expect(validateInteractive(`  ${'x'.repeat(60)}  `, ['ok']).body).toBeNull();
  });

  it('refuses a button over 20 characters, an empty one and repeated ones (ignoring case)', () => {
    const r = validateInteractive('Escolha', ['c'.repeat(21), '', 'Sim', ' sim ']);
    expect(r.buttons).toEqual(['chatTools.buttons.titleTooLong', 'chatTools.buttons.titleRequired', null, 'chatTools.buttons.titleDuplicate']);
    expect(r.valid).toBe(false);
  });

  it('needs 1 to 3 buttons', () => {
    expect(validateInteractive('Escolha', []).count).toBe('chatTools.buttons.count');
    expect(validateInteractive('Escolha', ['a', 'b', 'c', 'd']).count).toBe('chatTools.buttons.count');
    expect(validateInteractive('Escolha', ['a', 'b', 'c']).count).toBeNull();
  });

  it('sends trimmed text and titles', () => {
    expect(interactivePayload(' Olá ', [' Sim ', 'Não'])).toEqual({ body: 'Olá', buttons: [{ title: 'Sim' }, { title: 'Não' }] });
  });
});

describe('scheduled mark', () => {
  // The composer schedules with /agendamentos' form (schedules/schedule-time.ts and its tests);
  // the thread shows the moment in the tenant's zone, not the test machine's.
  const zone = 'America/Sao_Paulo';

  it('shows a scheduled date as dd/MM/yyyy HH:mm in the tenant zone', () => {
    expect(formatScheduleDate(new Date(new TZDate(2026, 2, 11, 9, 5, 0, 0, zone).getTime()).toISOString(), zone)).toBe('11/03/2026 09:05');
    expect(formatScheduleDate('2026-03-11T12:00:00.000Z', zone)).toBe('11/03/2026 09:00');
    expect(formatScheduleDate('2026-03-11T12:00:00.000Z', 'Asia/Tokyo')).toBe('11/03/2026 21:00');
    expect(formatScheduleDate('nope', zone)).toBe('');
  });
});

describe('forwarding', () => {
  it('selects up to 10 messages; the 11th is refused with the limit message', () => {
    let selected: number[] = [];
    for (let id = 1; id <= 10; id++) {
      const r = toggleForwardSelection(selected, id);
      expect(r.error).toBeNull();
      selected = r.selected;
    }
    expect(selected).toHaveLength(10);
    const refused = toggleForwardSelection(selected, 11);
    expect(refused.error).toBe('chatTools.forward.limit');
    expect(refused.selected).toEqual(selected);
    // Unchecking is always allowed, and frees a place.
    const fewer = toggleForwardSelection(selected, 3);
    expect(fewer.selected).toHaveLength(9);
    expect(toggleForwardSelection(fewer.selected, 11).error).toBeNull();
  });

  it('needs messages and exactly one destination contact', () => {
    expect(validateForward([], 5)).toBe('chatTools.forward.noneSelected');
    expect(validateForward([1], null)).toBe('chatTools.forward.contactRequired');
    expect(validateForward(Array.from({ length: 11 }, (_, i) => i), 5)).toBe('chatTools.forward.limit');
    expect(validateForward([1, 2], 5)).toBeNull();
  });

  it('searches contacts from 2 letters', () => {
    expect(contactSearchReady('')).toBe(false);
    expect(contactSearchReady(' a ')).toBe(false);
    expect(contactSearchReady('an')).toBe(true);
  });

  it('never forwards notes, deleted or scheduled messages', () => {
    const base = { isDeleted: false, isPrivate: false, status: 'sent' as const };
    expect(isForwardable(base)).toBe(true);
    expect(isForwardable({ ...base, isPrivate: true })).toBe(false);
    expect(isForwardable({ ...base, isDeleted: true })).toBe(false);
    expect(isForwardable({ ...base, status: 'scheduled' })).toBe(false);
  });
});

describe('slash quick replies', () => {
  const quick = [
    { id: 1, key: 'saudacao-manha', message: 'Bom dia', mediaName: null, active: true },
    { id: 2, key: 'saudacao-tarde', message: 'Boa tarde', mediaName: null, active: true },
    { id: 3, key: 'pix', message: 'Nossa chave', mediaName: null, active: true },
    { id: 4, key: 'pixantigo', message: 'velha', mediaName: null, active: false },
  ];

  it('a leading slash without spaces is a command; text with spaces is sent as typed; empty is an error', () => {
    expect(composerIntent('/pix', 0)).toEqual({ kind: 'quickCommand' });
    expect(composerIntent('  /pix  ', 0)).toEqual({ kind: 'quickCommand' });
    expect(composerIntent('/ pix', 0)).toEqual({ kind: 'send' });
    expect(composerIntent('1/2 de desconto', 0)).toEqual({ kind: 'send' });
    expect(composerIntent('   ', 0)).toEqual({ kind: 'empty' });
    expect(composerIntent('', 1)).toEqual({ kind: 'send' });
  });

  it('no match is an error naming the key; several offer a choice; one is sent', () => {
    expect(quickReplyOutcome('/naoexiste', quick)).toEqual({ kind: 'error', key: 'attendance.quick.noMatch', values: { key: 'naoexiste' } });
    const choose = quickReplyOutcome('/saud', quick);
    expect(choose.kind).toBe('choose');
    expect(choose.kind === 'choose' && choose.options.map((q) => q.key)).toEqual(['saudacao-manha', 'saudacao-tarde']);
    const one = quickReplyOutcome('/pix', quick);
    expect(one.kind === 'send' && one.quickMessage.id).toBe(3);
    // Inactive quick replies are not offered.
    expect(quickReplyOutcome('/pixa', quick).kind).toBe('error');
  });
});

describe('emoji insertion', () => {
  it('replaces the selection and puts the caret after the emoji', () => {
    expect(insertAtSelection('Olá mundo', 4, 9, '🙂')).toEqual({ text: 'Olá 🙂', caret: 6 });
    expect(insertAtSelection('Oi', null, null, '👍')).toEqual({ text: 'Oi👍', caret: 4 });
    expect(insertAtSelection('Oi', 0, 0, '👋 ')).toEqual({ text: '👋 Oi', caret: 3 });
    expect(insertAtSelection('Oi', 99, 120, '!')).toEqual({ text: 'Oi!', caret: 3 });
  });
});

describe('per-message menu', () => {
  const msg = (over: Partial<Message>): Pick<Message, 'fromMe' | 'isDeleted' | 'isPrivate' | 'status' | 'mediaType' | 'messageId'> => ({
    fromMe: true,
    isDeleted: false,
    isPrivate: false,
    status: 'sent',
    mediaType: 'chat',
    messageId: 'wamid.1',
    ...over,
  });

  it('offers reply, react, edit, delete and forward on our sent text', () => {
    expect(messageActionsOf(msg({}))).toEqual(['reply', 'react', 'edit', 'delete', 'forward']);
  });
  it('a customer message: reply, react, forward', () => {
    expect(messageActionsOf(msg({ fromMe: false, status: 'received' }))).toEqual(['reply', 'react', 'forward']);
  });
  it('a pending send cannot be reacted to or edited yet; it can be withdrawn', () => {
    expect(messageActionsOf(msg({ status: 'pending', messageId: null }))).toEqual(['reply', 'delete', 'forward']);
  });
  it('a note (ghost send) is edited in place, never reacted to or forwarded', () => {
    expect(messageActionsOf(msg({ isPrivate: true, messageId: null }))).toEqual(['reply', 'edit', 'delete']);
  });
  it('a scheduled message can be canceled; a deleted one offers nothing', () => {
    expect(messageActionsOf(msg({ status: 'scheduled', messageId: null }))).toEqual(['cancelSchedule']);
    expect(messageActionsOf(msg({ isDeleted: true }))).toEqual([]);
  });
});

describe('contact card and audio', () => {
  it('builds a vCard with the number as WhatsApp id', () => {
    const card = buildVCard({ name: 'Ana; Souza', number: '+55 (11) 99999-0000', email: 'ana@example.com' });
    expect(card).toContain('FN:Ana\\; Souza');
    expect(card).toContain('TEL;type=CELL;waid=5511999990000:+5511999990000');
    expect(card).toContain('EMAIL:ana@example.com');
    expect(card.startsWith('BEGIN:VCARD\r\nVERSION:3.0')).toBe(true);
    expect(vcardFileName('João da Silva')).toBe('Joao-da-Silva.vcf');
    expect(vcardFileName('***')).toBe('contato.vcf');
  });

  it('a refused microphone shows the permission message', () => {
    expect(microphoneErrorKey(new DOMException('denied', 'NotAllowedError'))).toBe('chatTools.audio.denied');
    expect(microphoneErrorKey({ name: 'NotFoundError' })).toBe('chatTools.audio.noDevice');
    expect(microphoneErrorKey(new Error('x'))).toBe('chatTools.audio.failed');
  });

  it('records in the first supported format', () => {
    expect(pickAudioMimeType((t) => t.startsWith('audio/webm'))).toBe('audio/webm;codecs=opus');
    expect(pickAudioMimeType(() => false)).toBe('');
    expect(audioFileName('audio/ogg;codecs=opus', new Date(2026, 0, 2, 3, 4, 5))).toBe('audio-2026-01-02-030405.ogg');
  });
});
