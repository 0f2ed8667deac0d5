import { describe, expect, it } from 'vitest';
import type { ContactDto } from '../../api/contacts.api';
import { buildResources } from '../../i18n/i18n';
import {
  CONTACT_TEXT_FIELDS,
  contactToForm,
  emptyContactForm,
  formPathOfServerPath,
  newExtraInfoRow,
  toCreateBody,
  toUpdateBody,
  validateContactForm,
  type ContactFormValues,
} from './contact-form';

const contact: ContactDto = {
  id: 7,
  name: 'Maria Souza',
  number: '5511987654321',
  email: 'maria@exemplo.com.br',
  cpfCnpj: '12345678909',
  birthday: '1990-05-17',
  firstName: 'Maria',
  lastName: 'Souza',
  businessName: null,
  messengerId: null,
  instagramId: null,
  hubWhatsappId: null,
  telegramId: null,
  profilePicUrl: null,
  isGroup: false,
  kanbanId: 3,
  extraInfo: [{ name: 'Plano', value: 'Ouro' }],
  blockContact: false,
  blockChatbot: true,
  tags: [{ id: 1, name: 'VIP', color: '#ff0000' }],
  wallets: [{ id: 4, name: 'Ana' }],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const form = (patch: Partial<ContactFormValues>): ContactFormValues => ({ ...emptyContactForm(), ...patch });
const keysOf = (values: ContactFormValues) =>
  Object.fromEntries(Object.entries(validateContactForm(values)).map(([path, problem]) => [path, problem.messageKey]));

describe('contactToForm', () => {
  it('shows stored values the way people type them', () => {
    const values = contactToForm(contact);
    expect(values.number).toBe('+55 (11) 98765-4321');
    expect(values.cpfCnpj).toBe('123.456.789-09');
    expect(values.birthday).toBe('17/05/1990');
    expect(values.businessName).toBe('');
    expect(values.tags).toEqual([1]);
    expect(values.wallets).toEqual([4]);
    expect(values.extraInfo.map(({ name, value }) => ({ name, value }))).toEqual([{ name: 'Plano', value: 'Ouro' }]);
  });
});

describe('validateContactForm (the server schema, messages per field)', () => {
  it('accepts a filled form, punctuation included', () => {
    expect(keysOf(contactToForm(contact))).toEqual({});
    expect(
      keysOf(form({ name: 'Loja', number: '(11) 98765-4321', cpfCnpj: '11.222.333/0001-81', birthday: '1/2/2001' })),
    ).toEqual({});
  });

  it('names each wrong field', () => {
    expect(
      keysOf(form({ name: '  ', number: '123', email: 'maria@', cpfCnpj: '123.456.789-00', birthday: '31/02/1990' })),
    ).toEqual({
      name: 'contacts.validation.required',
      number: 'contacts.validation.numberInvalid',
      email: 'contacts.validation.emailInvalid',
      cpfCnpj: 'contacts.validation.cpfCnpjInvalid',
      birthday: 'contacts.validation.birthdayInvalid',
    });
  });

  it('needs a number unless a channel id is given', () => {
    expect(keysOf(form({ name: 'Sem número' }))).toEqual({ number: 'contacts.validation.numberRequired' });
    expect(keysOf(form({ name: 'Só Telegram', telegramId: '@maria' }))).toEqual({});
  });

  it('reports lengths with their limit', () => {
    const problems = validateContactForm(form({ name: 'x'.repeat(201), number: '11987654321' }));
    expect(problems.name).toEqual({ messageKey: 'contacts.validation.tooLong', values: { max: 200 } });
  });

  it('checks additional info rows by their place in the form, ignoring blank rows', () => {
    const values = form({
      name: 'Maria',
      number: '11987654321',
      extraInfo: [newExtraInfoRow(), newExtraInfoRow('', 'sem nome'), newExtraInfoRow('Plano', 'x'.repeat(1001))],
    });
    expect(keysOf(values)).toEqual({
      'extraInfo.1.name': 'contacts.validation.required',
      'extraInfo.2.value': 'contacts.validation.tooLong',
    });
  });
});

describe('toCreateBody', () => {
  it('sends the filled fields, ISO birthday, and wallets only for supervisors and admins', () => {
    const values = form({
      name: ' Maria ',
      number: '(11) 98765-4321',
      cpfCnpj: '123.456.789-09',
      birthday: '17/05/1990',
      kanbanId: 2,
      tags: [1, 2],
      wallets: [4],
      extraInfo: [newExtraInfoRow(' Plano ', ' Ouro '), newExtraInfoRow()],
      blockChatbot: true,
    });
    expect(toCreateBody(values, { canEditWallets: true })).toEqual({
      name: 'Maria',
      number: '(11) 98765-4321',
      cpfCnpj: '123.456.789-09',
      birthday: '1990-05-17',
      kanbanId: 2,
      tags: [1, 2],
      wallets: [4],
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      blockChatbot: true,
    });
    expect(toCreateBody(values, { canEditWallets: false })).not.toHaveProperty('wallets');
  });
});

describe('toUpdateBody', () => {
  it('is empty when nothing changed', () => {
    const initial = contactToForm(contact);
    expect(toUpdateBody(initial, { ...initial }, { canEditWallets: true })).toEqual({});
  });

  it('sends what changed, and null for emptied fields', () => {
    const initial = contactToForm(contact);
    const values: ContactFormValues = {
      ...initial,
      email: '',
      businessName: 'Loja da Maria',
      birthday: '18/05/1990',
      kanbanId: null,
      tags: [],
      blockContact: true,
      extraInfo: [],
    };
    expect(toUpdateBody(initial, values, { canEditWallets: true })).toEqual({
      email: null,
      businessName: 'Loja da Maria',
      birthday: '1990-05-18',
      kanbanId: null,
      tags: [],
      blockContact: true,
      extraInfo: [],
    });
  });

  it('leaves wallets alone for agents and ignores the order of ids', () => {
    const initial = contactToForm({ ...contact, tags: [contact.tags[0], { id: 2, name: 'B', color: '#000000' }] });
    expect(toUpdateBody(initial, { ...initial, tags: [2, 1], wallets: [] }, { canEditWallets: false })).toEqual({});
  });
});

describe('formPathOfServerPath', () => {
  it('maps the server index of a sent row to the row of the form', () => {
    const values = form({
      extraInfo: [newExtraInfoRow(), newExtraInfoRow('a', '1'), newExtraInfoRow(), newExtraInfoRow('b', '2')],
    });
    expect(formPathOfServerPath('extraInfo.1.name', values)).toBe('extraInfo.3.name');
    expect(formPathOfServerPath('extraInfo.0', values)).toBe('extraInfo.1');
    expect(formPathOfServerPath('extraInfo.9.name', values)).toBe('extraInfo');
    expect(formPathOfServerPath('number', values)).toBe('number');
  });
});

describe('field labels', () => {
  it('exist for every text field in pt-br and en-us (they are looked up by name)', async () => {
    const resources = await buildResources();
    for (const locale of ['pt-br', 'en-us'] as const) {
      const fields = (resources[locale].translation as { contacts: { fields: Record<string, unknown> } }).contacts.fields;
      for (const field of CONTACT_TEXT_FIELDS) expect(typeof fields[field], `${locale} ${field}`).toBe('string');
    }
  });
});
