import { describe, expect, it } from 'vitest';
import { insertToken, previewMessage, sampleVariableValues } from './message-preview';

const t = (key: string) => `<${key.split('.').pop()}>`;

describe('automatic message preview', () => {
  it('fills every known variable from the examples and leaves unknown ones', () => {
    const values = sampleVariableValues(t, new Date(2026, 0, 1, 9));
    expect(previewMessage('{{greeting}}, {{firstName}}! Protocolo {{protocol}} {{ nope }}', values)).toBe(
      'Bom dia, <firstName>! Protocolo <protocol> {{ nope }}',
    );
    expect(sampleVariableValues(t, new Date(2026, 0, 1, 20)).greeting).toBe('Boa noite');
  });

  it('inserts a variable at the caret or in place of the selection', () => {
    expect(insertToken('Olá !', '{{name}}', 4, 4)).toEqual({ text: 'Olá {{name}}!', caret: 12 });
    expect(insertToken('Olá XX!', '{{name}}', 4, 6)).toEqual({ text: 'Olá {{name}}!', caret: 12 });
    expect(insertToken('Olá', '{{name}}', null, null)).toEqual({ text: 'Olá{{name}}', caret: 11 });
    expect(insertToken('Olá', '{{name}}', 99, 2)).toEqual({ text: 'Olá{{name}}', caret: 11 });
  });
});
