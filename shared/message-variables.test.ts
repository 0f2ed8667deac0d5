import { describe, expect, it } from 'vitest';
import {
  MESSAGE_VARIABLES,
  findMessageVariables,
  greetingForHour,
  messageVariableToken,
  renderMessageVariables,
} from './message-variables';

describe('message variables', () => {
  it('lists the variables of spec section 2, in order', () => {
    expect(MESSAGE_VARIABLES).toEqual([
      'name',
      'greeting',
      'protocol',
      'email',
      'phoneNumber',
      'kanban',
      'user',
      'userEmail',
      'firstName',
      'lastName',
      'businessName',
    ]);
    expect(messageVariableToken('firstName')).toBe('{{firstName}}');
  });

  it('finds the known variables used in a text once each', () => {
    expect(findMessageVariables('{{greeting}}, {{ name }}! {{name}} {{unknown}} protocolo {{protocol}}')).toEqual([
      'greeting',
      'name',
      'protocol',
    ]);
    expect(findMessageVariables('sem variáveis')).toEqual([]);
  });

  it('renders known variables, empties missing ones and keeps unknown tokens', () => {
    const text = '{{greeting}}, {{firstName}}! Seu protocolo é {{protocol}}. {{email}} {{desconhecida}}';
    expect(renderMessageVariables(text, { greeting: 'Bom dia', firstName: 'Ana', protocol: '2024-001' })).toBe(
      'Bom dia, Ana! Seu protocolo é 2024-001.  {{desconhecida}}',
    );
  });

  it('greets by the hour of day', () => {
    expect([4, 5, 11, 12, 17, 18, 23].map(greetingForHour)).toEqual([
      'Boa noite',
      'Bom dia',
      'Bom dia',
      'Boa tarde',
      'Boa tarde',
      'Boa noite',
      'Boa noite',
    ]);
  });
});
