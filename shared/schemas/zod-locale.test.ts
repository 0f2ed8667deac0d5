import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import './zod-locale';

describe('zod default messages', () => {
  it('are Portuguese, and a missing field is "é obrigatório"', () => {
    const r = z.object({ a: z.string(), b: z.number().min(3), c: z.email() }).safeParse({ b: 1, c: 'x' });
    const messages = r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages[0]).toBe('a: é obrigatório');
    expect(messages[1]).toMatch(/^b: .*>= 3/);
    expect(messages[1]).not.toMatch(/Too small/);
    expect(messages[2]).toMatch(/^c: .*inválid/i);
  });

  it('keep the messages a schema gives', () => {
    expect(z.string({ error: 'deve ser um texto' }).safeParse(1).error!.issues[0].message).toBe('deve ser um texto');
  });
});
