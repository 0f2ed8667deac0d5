import { describe, expect, it } from 'vitest';
import { otherOpenTicketOf, serverMessageOf } from '../console-errors';
import { inlineFieldBody } from './contact-panel-logic';

describe('inline contact edits send one changed field', () => {
  it('nothing when unchanged (numbers and CPF by digits, birthday in either form)', () => {
    expect(inlineFieldBody('name', ' Maria ', 'Maria')).toBeNull();
    expect(inlineFieldBody('number', '+55 (11) 98765-4321', '5511987654321')).toBeNull();
    expect(inlineFieldBody('cpfCnpj', '529.982.247-25', '52998224725')).toBeNull();
    expect(inlineFieldBody('birthday', '31/12/1990', '1990-12-31')).toBeNull();
    expect(inlineFieldBody('email', '', null)).toBeNull();
  });

  it('the field alone, cleared with null', () => {
    expect(inlineFieldBody('email', 'a@b.com', null)).toEqual({ email: 'a@b.com' });
    expect(inlineFieldBody('email', ' ', 'a@b.com')).toEqual({ email: null });
    expect(inlineFieldBody('number', '(11) 98765-4321', '5511987654321')).toEqual({ number: '11987654321' });
    expect(inlineFieldBody('birthday', '01/02/2000', null)).toEqual({ birthday: '01/02/2000' });
    expect(inlineFieldBody('name', '', 'Maria')).toEqual({ name: '' });
  });
});

describe('refusals shown in place', () => {
  it('reads the ongoing ticket of ERR_OTHER_OPEN_TICKET', () => {
    expect(otherOpenTicketOf({ status: 409, data: { error: 'ERR_OTHER_OPEN_TICKET', message: 'x', ticketId: 12, userId: 3 } })).toEqual({
      ticketId: 12,
      userId: 3,
    });
    expect(otherOpenTicketOf({ status: 409, data: { error: 'ERR_OTHER_OPEN_TICKET', ticketId: 12, userId: null } })).toEqual({ ticketId: 12, userId: null });
    expect(otherOpenTicketOf({ status: 404, data: { error: 'ERR_NO_CONTACT_FOUND' } })).toBeNull();
    expect(otherOpenTicketOf(undefined)).toBeNull();
  });

  it("keeps the server's own sentence of a 403", () => {
    const text = 'Só um administrador pode atribuir este atendimento.';
    expect(serverMessageOf({ status: 403, data: { error: 'ERR_NO_PERMISSION', message: text } })).toBe(text);
    expect(serverMessageOf({ status: 400, data: { error: 'ERR_TICKET_ALREADY_USER', message: 'x' } })).toBeNull();
  });
});
