import { describe, expect, it } from 'vitest';
import { isSendableQuickMessage, resolveQuickMessageCommand } from './quick-message-command';

const replies = [
  { key: 'oi', message: 'Olá!', active: true },
  { key: 'oi-tarde', message: 'Boa tarde!', active: true },
  { key: 'Obrigado', message: 'Obrigado pelo contato', active: true },
  { key: 'pix', message: 'Chave pix', active: true },
  { key: 'pausado', message: 'inativo', active: false },
];

describe('resolveQuickMessageCommand (spec section 5)', () => {
  it('treats an empty message as an error', () => {
    expect(resolveQuickMessageCommand('', replies)).toEqual({ kind: 'empty' });
    expect(resolveQuickMessageCommand('   \n', replies)).toEqual({ kind: 'empty' });
  });

  it('sends text without a leading slash as typed', () => {
    expect(resolveQuickMessageCommand('olá /oi', replies)).toEqual({ kind: 'text', text: 'olá /oi' });
    expect(resolveQuickMessageCommand('/oi tudo bem?', replies)).toEqual({ kind: 'text', text: '/oi tudo bem?' });
  });

  it('picks the single match, and an exact key over longer ones', () => {
    expect(resolveQuickMessageCommand('/pi', replies)).toEqual({ kind: 'match', quickMessage: replies[3] });
    expect(resolveQuickMessageCommand('/OI', replies)).toEqual({ kind: 'match', quickMessage: replies[0] });
    expect(resolveQuickMessageCommand('/obrigado ', replies)).toEqual({ kind: 'match', quickMessage: replies[2] });
  });

  it('asks to choose when several keys start with the query, and lists all active ones for a bare slash', () => {
    const several = resolveQuickMessageCommand('/o', replies);
    expect(several).toEqual({ kind: 'choose', query: 'o', options: [replies[2], replies[0], replies[1]] });
    const all = resolveQuickMessageCommand('/', replies);
    expect(all.kind).toBe('choose');
    expect(all.kind === 'choose' && all.options.map((o) => o.key)).toEqual(['Obrigado', 'oi', 'oi-tarde', 'pix']);
  });

  it('reports no match, ignoring inactive quick messages', () => {
    expect(resolveQuickMessageCommand('/xyz', replies)).toEqual({ kind: 'noMatch', query: 'xyz' });
    expect(resolveQuickMessageCommand('/pausado', replies)).toEqual({ kind: 'noMatch', query: 'pausado' });
    expect(resolveQuickMessageCommand('/', [])).toEqual({ kind: 'noMatch', query: '' });
  });

  it('knows a quick message with neither text nor file sends nothing', () => {
    expect(isSendableQuickMessage({ message: '  ' })).toBe(false);
    expect(isSendableQuickMessage({ message: '', mediaName: 'a.ogg' })).toBe(true);
    expect(isSendableQuickMessage({ message: 'oi', mediaName: null })).toBe(true);
  });
});
