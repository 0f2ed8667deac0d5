import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UpdateContactSchema } from '@shared/schemas/contacts';
import { AdminCreateChannelSchema } from '@shared/schemas/channels';
import { ForwardMessagesSchema } from '@shared/schemas/messages';
import { unknownBodyFields } from './strict-body';

describe('unknownBodyFields', () => {
  it('names unknown keys at the top, in nested objects and in arrays of objects', () => {
    expect(unknownBodyFields(UpdateContactSchema, { name: 'Ana', nome: 'x' })).toEqual(['nome']);
    expect(unknownBodyFields(UpdateContactSchema, { extraInfo: [{ name: 'a', value: 'b' }, { name: 'c', value: 'd', x: 1 }] })).toEqual([
      'extraInfo.1.x',
    ]);
    expect(unknownBodyFields(UpdateContactSchema, { name: 'Ana', email: null, tags: [1, 2] })).toEqual([]);
  });

  it('sees through refinements, transforms, defaults and preprocessing (which may rename keys)', () => {
    const renamed = z.preprocess(
      (v) => (v && typeof v === 'object' && 'queue' in v ? { name: (v as { queue: unknown }).queue } : v),
      z.object({ name: z.string() }).refine(() => true),
    );
    expect(unknownBodyFields(renamed, { queue: 'Fila' })).toEqual([]);
    expect(unknownBodyFields(renamed, { name: 'Fila', extra: 1 })).toEqual(['extra']);
    const wrapped = z.object({ a: z.object({ b: z.number() }).optional().default({ b: 1 }) }).transform((v) => v.a);
    expect(unknownBodyFields(wrapped, { a: { b: 2, c: 3 } })).toEqual(['a.c']);
  });

  it('takes intersections (a key of either side) and unions (the closest option)', () => {
    expect(unknownBodyFields(AdminCreateChannelSchema, { tenantId: 2, type: 'telegram', name: 'x', tokenTelegram: 't' })).toEqual([]);
    expect(unknownBodyFields(AdminCreateChannelSchema, { tenantId: 2, type: 'telegram', name: 'x', bogus: 1 })).toEqual(['bogus']);
    const union = z.union([z.string(), z.object({ a: z.string() }), z.object({ b: z.string() })]);
    expect(unknownBodyFields(union, { b: 'x' })).toEqual([]);
    expect(unknownBodyFields(union, { b: 'x', c: 1 })).toEqual(['c']);
  });

  it('leaves loose objects and records open, and accepts the echoed fields only', () => {
    expect(unknownBodyFields(z.looseObject({ a: z.string() }), { a: 'x', b: 1 })).toEqual([]);
    expect(unknownBodyFields(z.object({ r: z.record(z.string(), z.string()) }), { r: { any: 'x' } })).toEqual([]);
    // Forwarded rows are references: only their id is read.
    expect(unknownBodyFields(ForwardMessagesSchema, { messages: [{ id: 1, body: 'oi' }], contact: { id: 2, name: 'Ana' } })).toEqual([]);
    expect(unknownBodyFields(UpdateContactSchema, { id: 1, createdAt: 'x', name: 'A' }, ['id', 'createdAt'])).toEqual([]);
    expect(unknownBodyFields(UpdateContactSchema, { id: 1, name: 'A' }, ['createdAt'])).toEqual(['id']);
  });

  it('judges nothing it cannot describe (a scalar body, a type mismatch) and stops at a bounded depth', () => {
    expect(unknownBodyFields(UpdateContactSchema, 'text')).toEqual([]);
    expect(unknownBodyFields(UpdateContactSchema, [1, 2])).toEqual([]);
    let deep: unknown = { x: 1 };
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const lazy: z.ZodType = z.lazy(() => z.object({ a: lazy.optional() }));
    expect(() => unknownBodyFields(lazy, deep)).not.toThrow();
  });
});
