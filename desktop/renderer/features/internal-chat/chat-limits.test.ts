import { describe, expect, it } from 'vitest';
import { INTERNAL_CHAT_MESSAGE_MAX_CEILING, INTERNAL_CHAT_MESSAGE_MAX_DEFAULT } from '@shared/schemas/internal-chat';
import { editSchemaWithin, messageLimitOf, sendSchemaWithin, tooLongMessage, tooLongRefusalOf } from './chat-limits';

describe('the tenant\u2019s internal-chat message limit', () => {
  it('comes from the internalChatMessageMax setting, else the default, never above the ceiling', () => {
    expect(messageLimitOf(undefined)).toBe(INTERNAL_CHAT_MESSAGE_MAX_DEFAULT);
    expect(messageLimitOf([{ key: 'internalChatMessageMax', value: '20' }])).toBe(20);
    expect(messageLimitOf([{ key: 'internalChatMessageMax', value: 'abc' }])).toBe(INTERNAL_CHAT_MESSAGE_MAX_DEFAULT);
    expect(messageLimitOf([{ key: 'internalChatMessageMax', value: '999999' }])).toBe(INTERNAL_CHAT_MESSAGE_MAX_CEILING);
  });

  it('refuses a longer text with the server\u2019s sentence, counting the text as sent (trimmed)', () => {
    const schema = sendSchemaWithin(5);
    expect(schema.safeParse({ kind: 'user', id: 2, body: '  12345  ' }).success).toBe(true);
    const refused = schema.safeParse({ kind: 'user', id: 2, body: '123456' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['body'], message: 'Mensagem maior que o limite de 5 caracteres.' });
    expect(tooLongMessage(4000)).toBe('Mensagem maior que o limite de 4000 caracteres.');
  });

  it('keeps the shared schema\u2019s rules: a strict body, ids in range, and an edit that is not empty', () => {
    expect(sendSchemaWithin(10).safeParse({ kind: 'user', id: 0, body: 'x' }).success).toBe(false);
    expect(sendSchemaWithin(10).safeParse({ kind: 'user', id: 2, body: 'x', extra: 1 }).success).toBe(false);
    expect(sendSchemaWithin(10).safeParse({ kind: 'team', id: '7', body: '', ticketId: '' }).data).toMatchObject({
      id: 7,
      ticketId: undefined,
    });
    expect(editSchemaWithin(10).safeParse({ body: '   ' }).error?.issues[0]?.message).toBe(
      'Digite uma mensagem ou anexe um arquivo.',
    );
    expect(editSchemaWithin(3).safeParse({ body: 'abcd' }).error?.issues[0]?.message).toBe(
      'Mensagem maior que o limite de 3 caracteres.',
    );
  });

  it('reads the server\u2019s own sentence of a too-long refusal (it names the limit)', () => {
    const refusal = {
      status: 400,
      data: { error: 'ERR_CHAT_MESSAGE_TOO_LONG', message: 'Mensagem maior que o limite de 20 caracteres.' },
    };
    expect(tooLongRefusalOf(refusal)).toBe('Mensagem maior que o limite de 20 caracteres.');
    expect(tooLongRefusalOf({ status: 400, data: { error: 'ERR_CHAT_MESSAGE_EMPTY', message: 'x' } })).toBeNull();
    expect(tooLongRefusalOf(undefined)).toBeNull();
  });
});
