import { describe, expect, it } from 'vitest';
import type { Condition, Interaction } from '@shared/schemas/chatflow';
import { FlowSettingsSchema } from '@shared/schemas/chatflow';
import {
  ConditionFormSchema,
  conditionToValues,
  InteractionFormSchema,
  interactionToValues,
  SettingsFormSchema,
  settingsToValues,
  StepFormSchema,
} from './flow-forms';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('builder forms read with the contract schemas', () => {
  it('round-trips every kind of interaction', () => {
    const all: Interaction[] = [
      { id: 'i1', type: 'message', text: 'Olá {{firstName}}' },
      { id: 'i2', type: 'media', url: 'https://x.example/a.pdf', fileName: 'a.pdf', caption: 'Segue' },
      { id: 'i3', type: 'flowBuilder', text: 'Escolha', options: ['Vendas', 'Suporte'] },
      { id: 'i4', type: 'generativeChat', prompt: 'Responda', storeAs: 'resposta' },
      { id: 'i5', type: 'delay', seconds: 3 },
      { id: 'i6', type: 'tag', tagId: 4 },
      { id: 'i7', type: 'kanban', kanbanId: 5 },
      { id: 'i8', type: 'webhook', url: 'https://api.example/{{number}}', store: { status: 'data.status' } },
      { id: 'i9', type: 'startFlow', chatFlowId: 6 },
    ];
    for (const interaction of all) expect(InteractionFormSchema.parse(interactionToValues(interaction))).toEqual(interaction);
  });

  it('names the field of a bad interaction', () => {
    const delay = { ...interactionToValues(null, 'delay'), seconds: '0' };
    expect(paths(InteractionFormSchema.safeParse(delay))).toEqual(['seconds']);
    const menu = { ...interactionToValues(null, 'flowBuilder'), text: 'Menu', options: '\n \n' };
    expect(paths(InteractionFormSchema.safeParse(menu))).toEqual(['options']);
    expect(paths(InteractionFormSchema.safeParse(interactionToValues(null, 'tag')))).toEqual(['tagId']);
  });

  it('round-trips conditions with each kind of target, and names a missing target id', () => {
    const all: Condition[] = [
      { id: 'c1', type: 'keyword', values: ['sim', 'quero'], target: { type: 'step', stepId: 'fim' } },
      { id: 'c2', type: 'option', values: ['1'], target: { type: 'queue', queueId: 2 } },
      { id: 'c3', type: 'regex', pattern: '^\\d+$', target: { type: 'user', userId: 3 } },
      { id: 'c4', type: 'any', target: { type: 'close' } },
      { id: 'c5', type: 'businessHours', open: false, target: { type: 'channel', channelId: 4 } },
      { id: 'c6', type: 'field', field: 'var.status', operator: 'equals', value: 'pago', target: { type: 'close' } },
    ];
    for (const condition of all) expect(ConditionFormSchema.parse(conditionToValues(condition))).toEqual(condition);
    const noQueue = {
      ...conditionToValues(null),
      type: 'any' as const,
      target: { ...conditionToValues(null).target, type: 'queue' as const },
    };
    expect(paths(ConditionFormSchema.safeParse(noQueue))).toEqual(['target.queueId']);
    expect(paths(ConditionFormSchema.safeParse({ ...conditionToValues(null), type: 'any' }))).toEqual(['target']);
  });

  it('reads step overrides and flow settings (empty = the flow setting / none)', () => {
    expect(
      StepFormSchema.parse({ name: 'A', waitsForAnswer: false, maxAttempts: '', noAnswerMinutes: '5', selfDistribution: '' }),
    ).toEqual({
      name: 'A',
      waitsForAnswer: false,
      noAnswerMinutes: 5,
    });
    const settings = FlowSettingsSchema.parse({ noAnswerTarget: { type: 'queue', queueId: 9 }, maxAttempts: 2 });
    expect(SettingsFormSchema.parse(settingsToValues(settings))).toEqual(settings);
    expect(paths(SettingsFormSchema.safeParse({ ...settingsToValues(settings), maxAttempts: '99' }))).toEqual(['maxAttempts']);
  });
});
