import { describe, expect, it } from 'vitest';
import { AutoReplyActionSchema, CreateAutoReplySchema, matchesAutoReplyWords } from './auto-reply';

describe('matchesAutoReplyWords', () => {
  it.each([
    ['1', '1, vendas', true],
    [' VENDAS ', '1, vendas', true],
    ['Financeiro', 'financeiro,cobrança', true],
    ['cobranca', 'financeiro, cobrança', true],
    ['quero vendas', '1, vendas', false],
    ['11', '1', false],
    ['', '1', false],
    ['   ', ' , ', false],
    ['falar  com   atendente', 'falar com atendente', true],
  ])('%j against %j: %s', (message, words, expected) => {
    expect(matchesAutoReplyWords(message, words)).toBe(expected);
  });
});

describe('auto-reply schemas', () => {
  it('asks for the destination the action uses, and only that one', () => {
    const base = { stepReplyId: 1, words: 'a' };
    const issues = (body: object) => AutoReplyActionSchema.safeParse(body).error?.issues.map((i) => i.path.join('.')) ?? [];
    expect(issues({ ...base, action: 0 })).toEqual(['nextStepId']);
    expect(issues({ ...base, action: 1, nextStepId: 3 })).toEqual(['queueId']);
    expect(issues({ ...base, action: 2, queueId: 3 })).toEqual(['userIdDestination']);
    expect(issues({ ...base, action: '1', queueId: '3' })).toEqual([]);
    expect(issues({ ...base, action: 3, nextStepId: 3 })).toEqual(['action']);
  });

  it('keeps a test number to digits, an empty one as none', () => {
    expect(CreateAutoReplySchema.parse({ name: ' Menu ', testNumber: '' })).toMatchObject({ name: 'Menu', testNumber: null });
    expect(CreateAutoReplySchema.safeParse({ name: 'Menu', testNumber: '+55 11' }).success).toBe(false);
  });
});
