import type { ContactDto, ContactListResponse } from '@shared/schemas/contacts';
import { describe, expect, it } from 'vitest';
import { contactMatchesFilters, patchContactInPage, planContactPageChange, type ContactListArgs } from './contact-cache';

const contact = (id: number, patch: Partial<ContactDto> = {}): ContactDto => ({
  id,
  name: `Contato ${id}`,
  number: `55119876543${String(id).padStart(2, '0')}`,
  email: null,
  cpfCnpj: null,
  birthday: null,
  firstName: null,
  lastName: null,
  businessName: null,
  messengerId: null,
  instagramId: null,
  hubWhatsappId: null,
  telegramId: null,
  profilePicUrl: null,
  isGroup: false,
  kanbanId: null,
  extraInfo: [],
  blockContact: false,
  blockChatbot: false,
  tags: [],
  wallets: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...patch,
});

const page = (...contacts: ContactDto[]): ContactListResponse => ({
  contacts,
  count: contacts.length,
  countEstimated: false,
  hasMore: false,
});
const args = (patch: Partial<ContactListArgs> = {}): ContactListArgs => ({ pageNumber: 1, pageSize: 20, ...patch });

describe('planContactPageChange', () => {
  it('patches a contact edited in place', () => {
    const edited = contact(1, { email: 'novo@exemplo.com', blockContact: true });
    expect(planContactPageChange(page(contact(1), contact(2)), args(), { action: 'update', contact: edited })).toEqual({
      kind: 'patch',
      contact: edited,
    });
  });

  it('refetches when a rename may move the row, or the contact leaves the filter', () => {
    const list = page(contact(1, { tags: [{ id: 5, name: 'VIP', color: '#f00' }] }));
    expect(planContactPageChange(list, args(), { action: 'update', contact: contact(1, { name: 'Zé' }) }).kind).toBe('refetch');
    expect(planContactPageChange(list, args({ tags: [5] }), { action: 'update', contact: contact(1) }).kind).toBe('refetch');
  });

  it('ignores contacts outside the filter and refetches those that enter it', () => {
    const list = page(contact(1));
    expect(planContactPageChange(list, args({ kanbanId: 9 }), { action: 'update', contact: contact(3) }).kind).toBe('keep');
    expect(
      planContactPageChange(list, args({ kanbanId: 9 }), { action: 'update', contact: contact(3, { kanbanId: 9 }) }).kind,
    ).toBe('refetch');
    expect(planContactPageChange(list, args({ searchParam: 'maria' }), { action: 'create', contact: contact(4) }).kind).toBe(
      'keep',
    );
    expect(planContactPageChange(list, args(), { action: 'create', contact: contact(4) }).kind).toBe('refetch');
  });

  it('refetches on deletes, bulk changes and payloads it does not understand', () => {
    const list = page(contact(1));
    expect(planContactPageChange(list, args(), { action: 'delete', contactId: 1 }).kind).toBe('refetch');
    expect(planContactPageChange(list, args(), { action: 'bulk', source: 'import' }).kind).toBe('refetch');
    expect(planContactPageChange(list, args(), { action: 'update' }).kind).toBe('refetch');
    expect(planContactPageChange(list, args(), null).kind).toBe('refetch');
  });
});

describe('contactMatchesFilters', () => {
  it('reads the search like the server: name, e-mail or number, digits of a typed number', () => {
    const maria = contact(1, { name: 'Maria Souza', email: 'maria@loja.com', number: '5511987654321' });
    expect(contactMatchesFilters(maria, args({ searchParam: 'SOUZA' }))).toBe(true);
    expect(contactMatchesFilters(maria, args({ searchParam: 'loja.com' }))).toBe(true);
    expect(contactMatchesFilters(maria, args({ searchParam: '98765-4321' }))).toBe(true);
    expect(contactMatchesFilters(maria, args({ searchParam: 'pedro' }))).toBe(false);
    // Accents and case are ignored on both sides, as the server's unaccent index does.
    const joao = contact(2, { name: 'João Conceição', email: 'joão@loja.com', number: '5521912345678' });
    expect(contactMatchesFilters(joao, args({ searchParam: 'joao' }))).toBe(true);
    expect(contactMatchesFilters(joao, args({ searchParam: 'CONCEICAO' }))).toBe(true);
    expect(contactMatchesFilters(maria, args({ searchParam: 'MARÍA' }))).toBe(true);
    expect(contactMatchesFilters(joao, args({ searchParam: '(21) 91234' }))).toBe(true);
    // Digits inside a word are not a phone number.
    expect(contactMatchesFilters(joao, args({ searchParam: 'ab12' }))).toBe(false);
    // Below 2 characters the server ignores the search.
    expect(contactMatchesFilters(maria, args({ searchParam: 'x' }))).toBe(true);
  });

  it('matches any of the tags or wallet users', () => {
    const tagged = contact(1, { tags: [{ id: 2, name: 'B', color: '#000' }], wallets: [{ id: 7, name: 'Ana' }] });
    expect(contactMatchesFilters(tagged, args({ tags: [1, 2] }))).toBe(true);
    expect(contactMatchesFilters(tagged, args({ tags: [1] }))).toBe(false);
    expect(contactMatchesFilters(tagged, args({ wallets: [7] }))).toBe(true);
    expect(contactMatchesFilters(tagged, args({ wallets: [8] }))).toBe(false);
  });
});

describe('patchContactInPage', () => {
  it('replaces the row where it is', () => {
    const next = patchContactInPage(page(contact(1), contact(2)), contact(2, { blockChatbot: true }));
    expect(next.contacts.map((c) => [c.id, c.blockChatbot])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});
