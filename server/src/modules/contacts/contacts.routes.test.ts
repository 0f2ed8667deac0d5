import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_COUNT_EXACT_MAX } from '@shared/limits';
import type { ContactDto, ContactListResponse } from '@shared/schemas/contacts';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { createContact, insertKanban, insertTag, insertTicket } from './contacts.test-support';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** Two tenants: A with one user of each profile, B to prove isolation. */
async function twoTenants() {
  const a = await server.createTenantWithUsers();
  const b = await server.createTenantWithUsers();
  return { a, b };
}

const fieldsOf = (body: { fields?: { path: string }[] }) => (body.fields ?? []).map((f) => f.path);
const contactRow = async (id: number) => (await server.deps.dataSource.query(`SELECT * FROM contacts WHERE id = $1`, [id]))[0];

describe('POST /contacts', () => {
  it('creates a contact with every field, the number normalised and birthday in both spellings', async () => {
    const { a } = await twoTenants();
    const kanbanId = await insertKanban(server, a.tenant.id, 'Novos');
    const tagId = await insertTag(server, a.tenant.id, 'VIP', '#00FF00');
    const res = await server.request<ContactDto>('POST', '/contacts', {
      token: a.users.admin.token,
      body: {
        name: ' Ana Souza ',
        number: '(11) 98765-4321',
        email: 'Ana@Exemplo.com.br',
        cpfCnpj: '529.982.247-25',
        birthday: '17/05/1990',
        firstName: 'Ana',
        lastName: 'Souza',
        businessName: 'ACME',
        messengerId: 'm-1',
        instagramId: 'ig-1',
        hubWhatsappId: 'hub-1',
        telegramId: 'tg-1',
        kanbanId,
        extraInfo: [{ name: 'Plano', value: 'Ouro' }],
        blockContact: false,
        blockChatbot: true,
        tags: [tagId],
        wallets: [a.users.user.id],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Ana Souza',
      number: '5511987654321',
      email: 'ana@exemplo.com.br',
      cpfCnpj: '52998224725',
      birthday: '1990-05-17',
      firstName: 'Ana',
      lastName: 'Souza',
      businessName: 'ACME',
      messengerId: 'm-1',
      instagramId: 'ig-1',
      hubWhatsappId: 'hub-1',
      telegramId: 'tg-1',
      kanbanId,
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      blockContact: false,
      blockChatbot: true,
      tags: [{ id: tagId, name: 'VIP', color: '#00FF00' }],
      wallets: [{ id: a.users.user.id, name: 'User user' }],
    });
    expect(res.body).not.toHaveProperty('tenantId');

    const iso = await server.request<ContactDto>('POST', '/contacts', {
      token: a.users.user.token,
      body: { name: 'Bia', number: '+55 21 99999-0000', birthday: '1985-12-01' },
    });
    expect(iso.status).toBe(201);
    expect(iso.body.birthday).toBe('1985-12-01');

    // The write and its event are one transaction.
    const events = await server.deps.dataSource.query(
      `SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = 'contact:update' ORDER BY seq`,
      [a.tenant.id],
    );
    expect(
      events.map((e: { payload: { action: string; contact: { id: number } } }) => [e.payload.action, e.payload.contact.id]),
    ).toEqual([
      ['create', res.body.id],
      ['create', iso.body.id],
    ]);
  });

  it('answers 409 ERR_DUPLICATED_CONTACT for the same person typed another way, per tenant only', async () => {
    const { a, b } = await twoTenants();
    await createContact(server, a.users.user.token, { name: 'Carlos', number: '11 98765-0000' });
    for (const number of ['+55 (11) 98765-0000', '5511987650000', '11 8765-0000']) {
      const dup = await server.request('POST', '/contacts', { token: a.users.user.token, body: { name: 'Outro', number } });
      expect(dup.status, number).toBe(409);
      expect(dup.body.error).toBe('ERR_DUPLICATED_CONTACT');
    }
    const otherTenant = await server.request('POST', '/contacts', {
      token: b.users.user.token,
      body: { name: 'Carlos', number: '11 98765-0000' },
    });
    expect(otherTenant.status).toBe(201);
  });

  it('answers 400 ERR_VALIDATION naming the field', async () => {
    const { a, b } = await twoTenants();
    const cases: [Record<string, unknown>, string][] = [
      [{ number: '11987654321' }, 'name'],
      [{ name: 'Sem número' }, 'number'],
      [{ name: 'X', number: '12345' }, 'number'],
      [{ name: 'X', number: '11987654321', cpfCnpj: '111.111.111-11' }, 'cpfCnpj'],
      [{ name: 'X', number: '11987654321', cpfCnpj: '12.345.678/0001-00' }, 'cpfCnpj'],
      [{ name: 'X', number: '11987654321', birthday: '31/02/1990' }, 'birthday'],
      [{ name: 'X', number: '11987654321', email: 'not-an-email' }, 'email'],
      [{ name: 'X', number: '11987654321', extraInfo: [{ value: 'sem nome' }] }, 'extraInfo.0.name'],
      [{ name: 'X', number: '11987654321', tags: ['a'] }, 'tags.0'],
      [{ name: 'X', number: '11987654321', blockContact: 'sim' }, 'blockContact'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('POST', '/contacts', { token: a.users.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldsOf(res.body), JSON.stringify(body)).toContain(field);
    }
    const otherKanban = await insertKanban(server, b.tenant.id, 'Deles');
    const kanban = await server.request('POST', '/contacts', {
      token: a.users.admin.token,
      body: { name: 'X', number: '11987654321', kanbanId: otherKanban },
    });
    expect(kanban.status).toBe(400);
    expect(fieldsOf(kanban.body)).toEqual(['kanbanId']);
    const count = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM contacts WHERE "tenantId" = $1`, [
      a.tenant.id,
    ]);
    expect(count[0].n).toBe(0);
  });

  it('accepts a contact reachable only on another channel', async () => {
    const { a } = await twoTenants();
    const res = await server.request('POST', '/contacts', {
      token: a.users.user.token,
      body: { name: 'Insta', instagramId: 'insta.123' },
    });
    expect(res.status).toBe(201);
    expect(res.body.number).toBeNull();
  });

  it('refuses tags and wallets of another tenant, and wallets from a plain user', async () => {
    const { a, b } = await twoTenants();
    const foreignTag = await insertTag(server, b.tenant.id, 'Deles');
    const tag = await server.request('POST', '/contacts', {
      token: a.users.admin.token,
      body: { name: 'X', number: '11987654321', tags: [foreignTag] },
    });
    expect([tag.status, tag.body.error]).toEqual([404, 'ERR_NO_TAG_FOUND']);
    const wallet = await server.request('POST', '/contacts', {
      token: a.users.admin.token,
      body: { name: 'X', number: '11987654321', wallets: [b.users.user.id] },
    });
    expect([wallet.status, wallet.body.error]).toEqual([404, 'ERR_NO_USER_FOUND']);
    const byUser = await server.request('POST', '/contacts', {
      token: a.users.user.token,
      body: { name: 'X', number: '11987654321', wallets: [a.users.user.id] },
    });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const count = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM contacts WHERE "tenantId" = $1`, [
      a.tenant.id,
    ]);
    expect(count[0].n).toBe(0);
  });

  it('answers 401 without a token', async () => {
    const res = await server.request('POST', '/contacts', { body: { name: 'X', number: '11987654321' } });
    expect(res.status).toBe(401);
  });
});

describe('GET /contacts', () => {
  it('pages, searches and filters inside the tenant, with tags, wallets and kanban in each contact', async () => {
    const { a, b } = await twoTenants();
    const vip = await insertTag(server, a.tenant.id, 'VIP');
    const kanban = await insertKanban(server, a.tenant.id, 'Fechamento');
    const names = ['Ana', 'bruno', 'Carla', 'Davi', 'Eva'];
    const ids: number[] = [];
    for (const [i, name] of names.entries()) {
      const c = await createContact(server, a.users.admin.token, {
        name,
        number: `11 98888-000${i}`,
        email: `${name.toLowerCase()}@exemplo.com`,
        tags: i % 2 === 0 ? [vip] : [],
        wallets: i === 1 ? [a.users.super.id] : [],
        kanbanId: i === 4 ? kanban : undefined,
      });
      ids.push(c.id);
    }
    await createContact(server, b.users.admin.token, { name: 'Ana de B', number: '11 98888-0000' });

    const page1 = await server.request<ContactListResponse>('GET', '/contacts?pageSize=2', { token: a.users.user.token });
    expect(page1.status).toBe(200);
    expect(page1.body.count).toBe(5);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.contacts.map((c) => c.name)).toEqual(['Ana', 'bruno']);
    const page3 = await server.request<ContactListResponse>('GET', '/contacts?pageSize=2&pageNumber=3', {
      token: a.users.user.token,
    });
    expect(page3.body.contacts.map((c) => c.name)).toEqual(['Eva']);
    expect(page3.body.hasMore).toBe(false);
    expect(page3.body.contacts[0].kanbanId).toBe(kanban);

    const search = async (q: string) =>
      (
        await server.request<ContactListResponse>('GET', `/contacts?searchParam=${encodeURIComponent(q)}`, {
          token: a.users.user.token,
        })
      ).body.contacts.map((c) => c.name);
    expect(await search('CARL')).toEqual(['Carla']);
    expect(await search('davi@exem')).toEqual(['Davi']);
    expect(await search('98888-0004')).toEqual(['Eva']);
    expect(await search('a')).toHaveLength(5); // below 2 characters: ignored
    expect(await search('%')).toHaveLength(5);
    expect(await search('%%')).toEqual([]); // wildcards are literal characters

    const tagged = await server.request<ContactListResponse>('GET', `/contacts?tags=${vip}`, { token: a.users.user.token });
    expect(tagged.body.contacts.map((c) => c.name)).toEqual(['Ana', 'Carla', 'Eva']);
    expect(tagged.body.contacts[0].tags).toEqual([{ id: vip, name: 'VIP', color: '#FF0000' }]);
    const wallet = await server.request<ContactListResponse>('GET', `/contacts?wallets=${a.users.super.id}`, {
      token: a.users.user.token,
    });
    expect(wallet.body.contacts.map((c) => [c.name, c.wallets])).toEqual([
      ['bruno', [{ id: a.users.super.id, name: 'User super' }]],
    ]);
    const byKanban = await server.request<ContactListResponse>('GET', `/contacts?kanbanId=${kanban}`, {
      token: a.users.user.token,
    });
    expect(byKanban.body.contacts.map((c) => c.name)).toEqual(['Eva']);
    const combined = await server.request<ContactListResponse>('GET', `/contacts?tags=${vip}&tags=999999&searchParam=ca`, {
      token: a.users.user.token,
    });
    expect(combined.body).toMatchObject({ count: 1, hasMore: false });

    // Tenant B sees only its own contact, even when filtering by A's tag.
    const other = await server.request<ContactListResponse>('GET', `/contacts?searchParam=Ana`, { token: b.users.user.token });
    expect(other.body.contacts.map((c) => c.name)).toEqual(['Ana de B']);
    const otherTag = await server.request<ContactListResponse>('GET', `/contacts?tags=${vip}`, { token: b.users.user.token });
    expect(otherTag.body).toEqual({ contacts: [], count: 0, countEstimated: false, hasMore: false });
  });

  it('searches without accents or case on name and e-mail, and by digits on the number', async () => {
    const { a, b } = await twoTenants();
    const made: Record<string, number> = {};
    for (const [name, number, email] of [
      ['João Conceição', '(11) 98765-4321', 'joao.c@exemplo.com'],
      ['JOANA PÁDUA', '21 99654-3210', 'padua@exemplo.com'],
      ['Ângela Lima', '31 97777-1111', 'angela@exemplo.com'],
      ['Pedro Souza', '41 98765-9999', 'pedro@loja-sao-joao.com.br'],
      ['Maria 100%', '51 99123-4567', undefined],
    ] as const) {
      made[name] = (await createContact(server, a.users.admin.token, { name, number, email })).id;
    }
    // Tenant B has a João too (and the same number): never returned to A, and A's never to B.
    await createContact(server, b.users.admin.token, { name: 'João de B', number: '(11) 98765-4321' });
    const search = async (q: string, token = a.users.user.token) => {
      const res = await server.request<ContactListResponse>('GET', `/contacts?searchParam=${encodeURIComponent(q)}`, { token });
      expect(res.status, q).toBe(200);
      expect(res.body.countEstimated, q).toBe(false);
      expect(res.body.count, q).toBe(res.body.contacts.length);
      return res.body.contacts.map((c) => c.name);
    };
    expect(await search('joao')).toEqual(['João Conceição', 'Pedro Souza']); // Pedro by his e-mail
    expect(await search('JOAO')).toEqual(['João Conceição', 'Pedro Souza']);
    expect(await search('João')).toEqual(['João Conceição', 'Pedro Souza']);
    expect(await search('conceicao')).toEqual(['João Conceição']);
    expect(await search('padua')).toEqual(['JOANA PÁDUA']);
    expect(await search('ÂNGE')).toEqual(['Ângela Lima']);
    expect(await search('jo')).toEqual(['JOANA PÁDUA', 'João Conceição', 'Pedro Souza']); // 2 letters: no trigram, same answer
    expect(await search('são-joão')).toEqual(['Pedro Souza']); // the typed accents fold too
    expect(await search('C@EXEMPLO')).toEqual(['João Conceição']);
    // Number fragments, typed with or without formatting, match the digits of the stored number.
    expect(await search('98765')).toEqual(['João Conceição', 'Pedro Souza']);
    expect(await search('(11) 98765-43')).toEqual(['João Conceição']);
    expect(await search('+55 21 9965')).toEqual(['JOANA PÁDUA']);
    expect(await search('5541')).toEqual(['Pedro Souza']);
    // Letters with digits are not a phone number; % and _ are literal characters.
    expect(await search('a98765')).toEqual([]);
    expect(await search('100%')).toEqual(['Maria 100%']);
    expect(await search('10_')).toEqual([]);
    expect(await search('joao', b.users.user.token)).toEqual(['João de B']);
    expect(await search('98765-4321', b.users.user.token)).toEqual(['João de B']);
  });

  it('pages a search in a stable order, counts exactly up to the limit and estimates beyond, in every page', async () => {
    const { a, b } = await twoTenants();
    // Equal names: the id breaks the tie, so pages neither repeat nor skip a contact.
    for (let i = 0; i < 7; i++)
      await createContact(server, a.users.admin.token, { name: 'Zé Igual', number: `11 97000-000${i}` });
    const seen: number[] = [];
    for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
      const res = await server.request<ContactListResponse>(
        'GET',
        `/contacts?searchParam=ze%20ig&pageSize=3&pageNumber=${pageNumber}`,
        {
          token: a.users.user.token,
        },
      );
      expect(res.body).toMatchObject({ count: 7, countEstimated: false, hasMore: pageNumber < 3 });
      seen.push(...res.body.contacts.map((c) => c.id));
    }
    expect(seen).toHaveLength(7);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);

    // More matches than CONTACT_COUNT_EXACT_MAX: the count is the planner's estimate, marked so.
    const many = CONTACT_COUNT_EXACT_MAX + 50;
    await server.deps.dataSource.query(
      `INSERT INTO contacts ("tenantId", name, number)
       SELECT $1::int, 'Multidão ' || lpad(g::text, 6, '0'), (5511930000000 + g)::text FROM generate_series(1, $2::int) g`,
      [a.tenant.id, many],
    );
    await server.deps.dataSource.query(`ANALYZE contacts`);
    const broad = await server.request<ContactListResponse>('GET', '/contacts?searchParam=multidao&pageSize=5&pageNumber=2', {
      token: a.users.user.token,
    });
    expect(broad.status).toBe(200);
    expect(broad.body.countEstimated).toBe(true);
    expect(broad.body.count).toBeGreaterThan(CONTACT_COUNT_EXACT_MAX);
    expect(broad.body.hasMore).toBe(true);
    expect(broad.body.contacts.map((c) => c.name)).toEqual(
      ['000006', '000007', '000008', '000009', '000010'].map((n) => `Multidão ${n}`),
    );
    // Without a search the count stays exact well beyond that limit (what an import just added shows).
    const all = await server.request<ContactListResponse>('GET', '/contacts?pageSize=5', { token: a.users.admin.token });
    const [{ n }] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM contacts WHERE "tenantId" = $1`, [a.tenant.id]);
    expect(n).toBeGreaterThan(CONTACT_COUNT_EXACT_MAX);
    expect(all.body).toMatchObject({ count: n, countEstimated: false, hasMore: true });
    // The last page of a broad search: hasMore false, the count at least what precedes it.
    const lastPage = await server.request<ContactListResponse>(
      'GET',
      `/contacts?searchParam=multidao&pageSize=20&pageNumber=${Math.ceil(many / 20)}`,
      { token: a.users.user.token },
    );
    expect(lastPage.body.contacts.map((c) => c.name)).toEqual(
      Array.from({ length: many % 20 || 20 }, (_, i) => `Multidão ${String(many - (many % 20 || 20) + i + 1).padStart(6, '0')}`),
    );
    expect(lastPage.body.hasMore).toBe(false);
    expect(lastPage.body.count).toBeGreaterThanOrEqual(many);
    // Broad matches that all sort after many other contacts: the walk in name order gives up and
    // the matches are sorted instead, with the same answer.
    await server.deps.dataSource.query(
      `INSERT INTO contacts ("tenantId", name, number)
       SELECT $1::int, 'Abelha ' || lpad(g::text, 6, '0'), (5511940000000 + g)::text FROM generate_series(1, 20001) g`,
      [a.tenant.id],
    );
    await server.deps.dataSource.query(`ANALYZE contacts`);
    const late = await server.request<ContactListResponse>('GET', '/contacts?searchParam=multidao&pageSize=3', {
      token: a.users.user.token,
    });
    expect(late.body).toMatchObject({ countEstimated: true, hasMore: true });
    expect(late.body.contacts.map((c) => c.name)).toEqual(['000001', '000002', '000003'].map((n) => `Multidão ${n}`));
    const narrow = await server.request<ContactListResponse>('GET', '/contacts?searchParam=multidao%20001234', {
      token: a.users.user.token,
    });
    expect(narrow.body).toMatchObject({ count: 1, countEstimated: false, hasMore: false });
    expect(
      (await server.request<ContactListResponse>('GET', '/contacts?searchParam=multidao', { token: b.users.user.token })).body,
    ).toEqual({ contacts: [], count: 0, countEstimated: false, hasMore: false });
  });

  it('answers 400 naming the query field, and 401 without a token', async () => {
    const { a } = await twoTenants();
    for (const [query, field] of [
      ['pageSize=101', 'pageSize'],
      ['pageNumber=0', 'pageNumber'],
      ['pageNumber=abc', 'pageNumber'],
      ['tags=x', 'tags.0'],
      ['kanbanId=-1', 'kanbanId'],
    ]) {
      const res = await server.request('GET', `/contacts?${query}`, { token: a.users.user.token });
      expect(res.status, query).toBe(400);
      expect(fieldsOf(res.body), query).toContain(field);
    }
    expect((await server.request('GET', '/contacts')).status).toBe(401);
  });
});

describe('GET /contacts/:contactId', () => {
  it('answers the contact to any profile of its tenant and 404 to another tenant', async () => {
    const { a, b } = await twoTenants();
    const c = await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321' });
    const mine = await server.request('GET', `/contacts/${c.id}`, { token: a.users.user.token });
    expect(mine.status).toBe(200);
    expect(mine.body.name).toBe('Ana');
    const theirs = await server.request('GET', `/contacts/${c.id}`, { token: b.users.admin.token });
    expect([theirs.status, theirs.body.error]).toEqual([404, 'ERR_NO_CONTACT_FOUND']);
    const missing = await server.request('GET', `/contacts/99999999`, { token: a.users.admin.token });
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_NO_CONTACT_FOUND']);
    const bad = await server.request('GET', `/contacts/abc`, { token: a.users.admin.token });
    expect([bad.status, fieldsOf(bad.body)]).toEqual([400, ['contactId']]);
    expect((await server.request('GET', `/contacts/${c.id}`)).status).toBe(401);
  });
});

describe('PUT /contacts/:contactId', () => {
  it('updates the fields sent, clears with null, normalises the number', async () => {
    const { a } = await twoTenants();
    const c = await createContact(server, a.users.admin.token, {
      name: 'Ana',
      number: '11987654321',
      email: 'ana@x.com',
      firstName: 'Ana',
    });
    const res = await server.request<ContactDto>('PUT', `/contacts/${c.id}`, {
      token: a.users.user.token,
      body: { number: '+55 21 98765-4321', email: null, birthday: '01/02/2000', extraInfo: [{ name: 'k', value: 'v' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Ana',
      number: '5521987654321',
      email: null,
      birthday: '2000-02-01',
      firstName: 'Ana',
      extraInfo: [{ name: 'k', value: 'v' }],
    });
  });

  it('refuses clearing the number of a contact reachable nowhere else, and keeps it', async () => {
    const { a } = await twoTenants();
    const c = await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321' });
    const res = await server.request('PUT', `/contacts/${c.id}`, { token: a.users.admin.token, body: { number: null } });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ path: 'number', message: 'Número é obrigatório' }]);
    const after = await server.request<ContactDto>('GET', `/contacts/${c.id}`, { token: a.users.admin.token });
    expect(after.body.number).toBe('5511987654321');
    const withTelegram = await server.request<ContactDto>('PUT', `/contacts/${c.id}`, {
      token: a.users.admin.token,
      body: { number: null, telegramId: '424242' },
    });
    expect(withTelegram.status).toBe(200);
    expect(withTelegram.body.number).toBeNull();
  });

  it('answers 409 when the new number belongs to another contact', async () => {
    const { a } = await twoTenants();
    await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321' });
    const other = await createContact(server, a.users.admin.token, { name: 'Bia', number: '11987650000' });
    const res = await server.request('PUT', `/contacts/${other.id}`, {
      token: a.users.admin.token,
      body: { number: '(11) 98765-4321' },
    });
    expect([res.status, res.body.error]).toEqual([409, 'ERR_DUPLICATED_CONTACT']);
    expect((await contactRow(other.id)).number).toBe('5511987650000');
  });

  it('lets a user send the wallets back unchanged but not change them', async () => {
    const { a } = await twoTenants();
    const c = await createContact(server, a.users.admin.token, {
      name: 'Ana',
      number: '11987654321',
      wallets: [a.users.super.id],
    });
    const same = await server.request('PUT', `/contacts/${c.id}`, {
      token: a.users.user.token,
      body: { name: 'Ana B', wallets: [a.users.super.id] },
    });
    expect(same.status).toBe(200);
    const changed = await server.request('PUT', `/contacts/${c.id}`, {
      token: a.users.user.token,
      body: { name: 'Ana C', wallets: [a.users.user.id] },
    });
    expect([changed.status, changed.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    expect((await contactRow(c.id)).name).toBe('Ana B');
  });

  it('answers 404 to another tenant with the row unchanged, 400 naming the field, 401 without a token', async () => {
    const { a, b } = await twoTenants();
    const c = await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321' });
    const theirs = await server.request('PUT', `/contacts/${c.id}`, { token: b.users.admin.token, body: { name: 'Hacked' } });
    expect([theirs.status, theirs.body.error]).toEqual([404, 'ERR_NO_CONTACT_FOUND']);
    const bad = await server.request('PUT', `/contacts/${c.id}`, {
      token: a.users.admin.token,
      body: { name: '', cpfCnpj: '123' },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(['cpfCnpj', 'name']);
    expect((await server.request('PUT', `/contacts/${c.id}`, { body: { name: 'X' } })).status).toBe(401);
    expect((await contactRow(c.id)).name).toBe('Ana');
  });
});

describe('DELETE /contacts/:contactId', () => {
  it('deletes for supervisors and admins, refuses users, other tenants and contacts with tickets', async () => {
    const { a, b } = await twoTenants();
    const c1 = await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321' });
    const c2 = await createContact(server, a.users.admin.token, { name: 'Bia', number: '11987654322' });
    const withTicket = await createContact(server, a.users.admin.token, { name: 'Caio', number: '11987654323' });
    await insertTicket(server, a.tenant.id, withTicket.id, 'closed');

    const byUser = await server.request('DELETE', `/contacts/${c1.id}`, { token: a.users.user.token });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const byOther = await server.request('DELETE', `/contacts/${c1.id}`, { token: b.users.admin.token });
    expect([byOther.status, byOther.body.error]).toEqual([404, 'ERR_NO_CONTACT_FOUND']);
    expect(await contactRow(c1.id)).toBeTruthy();
    const tickets = await server.request('DELETE', `/contacts/${withTicket.id}`, { token: a.users.admin.token });
    expect([tickets.status, tickets.body.error]).toEqual([409, 'ERR_CONTACT_TICKETS_REGISTERED']);
    expect(await contactRow(withTicket.id)).toBeTruthy();
    const bad = await server.request('DELETE', `/contacts/0`, { token: a.users.admin.token });
    expect([bad.status, fieldsOf(bad.body)]).toEqual([400, ['contactId']]);
    expect((await server.request('DELETE', `/contacts/${c1.id}`)).status).toBe(401);

    expect((await server.request('DELETE', `/contacts/${c1.id}`, { token: a.users.super.token })).status).toBe(204);
    expect((await server.request('DELETE', `/contacts/${c2.id}`, { token: a.users.admin.token })).status).toBe(204);
    expect(await contactRow(c1.id)).toBeUndefined();
    const events = await server.deps.dataSource.query(
      `SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = 'contact:update' AND payload->>'action' = 'delete' ORDER BY seq`,
      [a.tenant.id],
    );
    expect(events.map((e: { payload: { contactId: number } }) => e.payload.contactId)).toEqual([c1.id, c2.id]);
  });
});

describe('PUT /contact-tags/:contactId', () => {
  it('replaces the tags with tags of the same tenant', async () => {
    const { a, b } = await twoTenants();
    const t1 = await insertTag(server, a.tenant.id, 'Azul', '#0000FF');
    const t2 = await insertTag(server, a.tenant.id, 'Verde', '#00FF00');
    const foreign = await insertTag(server, b.tenant.id, 'Deles');
    const c = await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321', tags: [t1] });

    const res = await server.request<ContactDto>('PUT', `/contact-tags/${c.id}`, {
      token: a.users.user.token,
      body: { tags: [t2, t2] },
    });
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual([{ id: t2, name: 'Verde', color: '#00FF00' }]);

    const wrongTag = await server.request('PUT', `/contact-tags/${c.id}`, {
      token: a.users.user.token,
      body: { tags: [t1, foreign] },
    });
    expect([wrongTag.status, wrongTag.body.error]).toEqual([404, 'ERR_NO_TAG_FOUND']);
    const wrongTenant = await server.request('PUT', `/contact-tags/${c.id}`, {
      token: b.users.admin.token,
      body: { tags: [foreign] },
    });
    expect([wrongTenant.status, wrongTenant.body.error]).toEqual([404, 'ERR_NO_CONTACT_FOUND']);
    const bad = await server.request('PUT', `/contact-tags/${c.id}`, { token: a.users.user.token, body: { tags: 'Azul' } });
    expect([bad.status, fieldsOf(bad.body)]).toEqual([400, ['tags']]);
    expect((await server.request('PUT', `/contact-tags/${c.id}`, { body: { tags: [] } })).status).toBe(401);
    const stored = await server.deps.dataSource.query(`SELECT "tagId" FROM contact_tags WHERE "contactId" = $1`, [c.id]);
    expect(stored).toEqual([{ tagId: t2 }]);

    const cleared = await server.request<ContactDto>('PUT', `/contact-tags/${c.id}`, {
      token: a.users.user.token,
      body: { tags: [] },
    });
    expect(cleared.body.tags).toEqual([]);
  });
});

describe('PUT /contact-wallet/:contactId', () => {
  it('sets the responsible users (supervisors and admins only, users of the tenant only)', async () => {
    const { a, b } = await twoTenants();
    const c = await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321' });
    const res = await server.request<ContactDto>('PUT', `/contact-wallet/${c.id}`, {
      token: a.users.super.token,
      body: { wallets: [a.users.user.id, a.users.admin.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.wallets.map((w) => w.id).sort()).toEqual([a.users.user.id, a.users.admin.id].sort());

    const byUser = await server.request('PUT', `/contact-wallet/${c.id}`, { token: a.users.user.token, body: { wallets: [] } });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const foreignUser = await server.request('PUT', `/contact-wallet/${c.id}`, {
      token: a.users.admin.token,
      body: { wallets: [b.users.user.id] },
    });
    expect([foreignUser.status, foreignUser.body.error]).toEqual([404, 'ERR_NO_USER_FOUND']);
    const wrongTenant = await server.request('PUT', `/contact-wallet/${c.id}`, {
      token: b.users.admin.token,
      body: { wallets: [b.users.user.id] },
    });
    expect([wrongTenant.status, wrongTenant.body.error]).toEqual([404, 'ERR_NO_CONTACT_FOUND']);
    const bad = await server.request('PUT', `/contact-wallet/${c.id}`, { token: a.users.admin.token, body: { wallets: [0] } });
    expect([bad.status, fieldsOf(bad.body)]).toEqual([400, ['wallets.0']]);
    expect((await server.request('PUT', `/contact-wallet/${c.id}`, { body: { wallets: [] } })).status).toBe(401);
    const stored = await server.deps.dataSource.query(
      `SELECT "userId" FROM contact_wallets WHERE "contactId" = $1 ORDER BY "userId"`,
      [c.id],
    );
    expect(stored.map((r: { userId: number }) => r.userId)).toEqual([a.users.admin.id, a.users.user.id].sort((x, y) => x - y));
  });
});

describe('PUT /contacts/:contactId/block and /block-chatbot', () => {
  it('sets each flag for any profile of the tenant', async () => {
    const { a, b } = await twoTenants();
    const c = await createContact(server, a.users.admin.token, { name: 'Ana', number: '11987654321' });
    const block = await server.request<ContactDto>('PUT', `/contacts/${c.id}/block`, {
      token: a.users.user.token,
      body: { blockContact: true },
    });
    expect([block.status, block.body.blockContact, block.body.blockChatbot]).toEqual([200, true, false]);
    const bot = await server.request<ContactDto>('PUT', `/contacts/${c.id}/block-chatbot`, {
      token: a.users.user.token,
      body: { blockChatbot: true },
    });
    expect([bot.status, bot.body.blockContact, bot.body.blockChatbot]).toEqual([200, true, true]);
    const unblock = await server.request<ContactDto>('PUT', `/contacts/${c.id}/block`, {
      token: a.users.user.token,
      body: { blockContact: false },
    });
    expect(unblock.body.blockContact).toBe(false);

    for (const suffix of ['block', 'block-chatbot']) {
      const field = suffix === 'block' ? 'blockContact' : 'blockChatbot';
      const theirs = await server.request('PUT', `/contacts/${c.id}/${suffix}`, {
        token: b.users.admin.token,
        body: { [field]: false },
      });
      expect([theirs.status, theirs.body.error]).toEqual([404, 'ERR_NO_CONTACT_FOUND']);
      const bad = await server.request('PUT', `/contacts/${c.id}/${suffix}`, {
        token: a.users.user.token,
        body: { [field]: 'yes' },
      });
      expect([bad.status, fieldsOf(bad.body)]).toEqual([400, [field]]);
      expect((await server.request('PUT', `/contacts/${c.id}/${suffix}`, { body: { [field]: true } })).status).toBe(401);
    }
    const row = await contactRow(c.id);
    expect([row.blockContact, row.blockChatbot]).toEqual([false, true]);
  });
});

describe('POST /contacts/sync', () => {
  // The import itself (Baileys channels, created / updated / skipped) is in modules/groups/groups.test.ts, against the fake socket.
  it('without channels says so; agents are refused; a malformed body is a 400', async () => {
    const { a } = await twoTenants();
    const res = await server.request('POST', '/contacts/sync', { token: a.users.admin.token });
    expect([res.status, res.body.error]).toEqual([400, 'ERR_NO_DEF_WAPP_FOUND']);
    expect(res.body.message).toContain('QR code');
    const byUser = await server.request('POST', '/contacts/sync', { token: a.users.user.token });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const malformed = await server.request('POST', '/contacts/sync', { token: a.users.admin.token, body: { whatsappId: 'x' } });
    expect([malformed.status, malformed.body.error, fieldsOf(malformed.body)]).toEqual([400, 'ERR_VALIDATION', ['whatsappId']]);
    expect((await server.request('POST', '/contacts/sync')).status).toBe(401);
  });

  it('says plainly that a Cloud API channel cannot sync the phone contacts; another tenant channel is not found', async () => {
    const { a, b } = await twoTenants();
    const [waba] = await server.deps.dataSource.query(
      `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Oficial', 'waba', 'CONNECTED') RETURNING id`,
      [a.tenant.id],
    );
    const res = await server.request('POST', '/contacts/sync', { token: a.users.admin.token, body: { whatsappId: waba.id } });
    expect([res.status, res.body.error]).toEqual([400, 'ERR_CHANNEL_OPERATION_UNSUPPORTED']);
    expect(res.body.message).toBe('A conexão "Oficial" (tipo waba) não dá acesso aos contatos do celular: apenas conexões por QR code (Baileys) sincronizam contatos.');
    const all = await server.request('POST', '/contacts/sync', { token: a.users.admin.token });
    expect([all.status, all.body.error]).toEqual([400, 'ERR_CHANNEL_OPERATION_UNSUPPORTED']);
    expect(all.body.channels).toEqual([expect.objectContaining({ whatsappId: waba.id, type: 'waba', error: 'ERR_CHANNEL_OPERATION_UNSUPPORTED' })]);
    const other = await server.request('POST', '/contacts/sync', { token: b.users.admin.token, body: { whatsappId: waba.id } });
    expect([other.status, other.body.error]).toEqual([404, 'ERR_NO_WAPP_FOUND']);
  });
});

describe('POST /contacts/remove-duplicates', () => {
  /** Rows stored before normalisation existed (or by a channel), written directly. */
  async function legacyContact(
    tenantId: number,
    name: string,
    number: string,
    createdAt: string,
    extra: Record<string, unknown> = {},
  ) {
    const [row] = await server.deps.dataSource.query(
      `INSERT INTO contacts ("tenantId", name, number, email, "businessName", "blockContact", "createdAt") VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [tenantId, name, number, extra.email ?? null, extra.businessName ?? null, extra.blockContact ?? false, createdAt],
    );
    return row.id as number;
  }

  it('merges one person into the oldest contact, keeping tickets, messages, tags and wallets', async () => {
    const { a, b } = await twoTenants();
    const oldest = await legacyContact(a.tenant.id, 'Ana', '11987650001', '2020-01-01T00:00:00Z');
    const canonical = await legacyContact(a.tenant.id, 'Ana Souza', '5511987650001', '2021-01-01T00:00:00Z', {
      email: 'ana@x.com',
    });
    const oldMobile = await legacyContact(a.tenant.id, 'Ana S', '(11) 8765-0001', '2022-01-01T00:00:00Z', {
      businessName: 'ACME',
      blockContact: true,
    });
    const unrelated = await legacyContact(a.tenant.id, 'Bia', '+55 21 99999-0000', '2020-06-01T00:00:00Z');
    const otherTenant1 = await legacyContact(b.tenant.id, 'Ana B', '11987650001', '2020-01-01T00:00:00Z');
    const otherTenant2 = await legacyContact(b.tenant.id, 'Ana B2', '5511987650001', '2020-01-02T00:00:00Z');

    const t1 = await insertTicket(server, a.tenant.id, canonical);
    const t2 = await insertTicket(server, a.tenant.id, oldMobile, 'closed');
    const [m1] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body) VALUES ($1, $2, $3, 'oi') RETURNING id`,
      [a.tenant.id, t1, canonical],
    );
    const [m2] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body) VALUES ($1, $2, $3, 'olá') RETURNING id`,
      [a.tenant.id, t2, oldMobile],
    );
    const tagA = await insertTag(server, a.tenant.id, 'A');
    const tagB = await insertTag(server, a.tenant.id, 'B');
    await server.deps.dataSource.query(
      `INSERT INTO contact_tags ("contactId", "tagId", "tenantId") VALUES ($1, $3, $5), ($2, $3, $5), ($2, $4, $5)`,
      [oldest, canonical, tagA, tagB, a.tenant.id],
    );
    await server.deps.dataSource.query(`INSERT INTO contact_wallets ("contactId", "userId", "tenantId") VALUES ($1, $2, $3)`, [
      oldMobile,
      a.users.super.id,
      a.tenant.id,
    ]);
    await server.deps.dataSource.query(
      `INSERT INTO contact_identities ("tenantId", "contactId", kind, "externalId") VALUES ($1, $2, 'lid', 'lid-ana'), ($1, $3, 'wa', '5511987650001')`,
      [a.tenant.id, oldMobile, canonical],
    );
    // Two contacts of one person, each in an open ticket on the same channel: a person must close one first.
    const caio1 = await legacyContact(a.tenant.id, 'Caio', '11987650002', '2020-01-01T00:00:00Z');
    const caio2 = await legacyContact(a.tenant.id, 'Caio 2', '5511987650002', '2020-02-01T00:00:00Z');
    await insertTicket(server, a.tenant.id, caio1, 'open');
    await insertTicket(server, a.tenant.id, caio2, 'pending');

    const byUser = await server.request('POST', '/contacts/remove-duplicates', { token: a.users.user.token });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    expect((await server.request('POST', '/contacts/remove-duplicates')).status).toBe(401);

    const res = await server.request('POST', '/contacts/remove-duplicates', { token: a.users.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ merged: 1, removed: 2, normalized: 2, skipped: 1 });

    const kept = await server.request<ContactDto>('GET', `/contacts/${oldest}`, { token: a.users.admin.token });
    expect(kept.body).toMatchObject({
      name: 'Ana',
      number: '5511987650001',
      email: 'ana@x.com',
      businessName: 'ACME',
      blockContact: true,
    });
    expect(kept.body.tags.map((t) => t.id).sort()).toEqual([tagA, tagB].sort());
    expect(kept.body.wallets.map((w) => w.id)).toEqual([a.users.super.id]);
    expect(await contactRow(canonical)).toBeUndefined();
    expect(await contactRow(oldMobile)).toBeUndefined();
    expect((await contactRow(unrelated)).number).toBe('5521999990000');
    const tickets = await server.deps.dataSource.query(`SELECT id, "contactId" FROM tickets WHERE id = ANY($1) ORDER BY id`, [
      [t1, t2],
    ]);
    expect(tickets).toEqual([
      { id: t1, contactId: oldest },
      { id: t2, contactId: oldest },
    ]);
    const messages = await server.deps.dataSource.query(`SELECT "contactId" FROM messages WHERE id = ANY($1)`, [[m1.id, m2.id]]);
    expect(messages).toEqual([{ contactId: oldest }, { contactId: oldest }]);
    const identities = await server.deps.dataSource.query(
      `SELECT "contactId", kind FROM contact_identities WHERE "tenantId" = $1 ORDER BY kind`,
      [a.tenant.id],
    );
    expect(identities).toEqual([
      { contactId: oldest, kind: 'lid' },
      { contactId: oldest, kind: 'wa' },
    ]);
    expect((await contactRow(caio1)).number).toBe('11987650002');
    expect(await contactRow(caio2)).toBeTruthy();

    // Tenant B's duplicates are B's business.
    expect(await contactRow(otherTenant1)).toBeTruthy();
    expect(await contactRow(otherTenant2)).toBeTruthy();

    // Nothing left to merge; and now the index catches the next spelling.
    const again = await server.request('POST', '/contacts/remove-duplicates', { token: a.users.super.token });
    expect(again.body).toEqual({ merged: 0, removed: 0, normalized: 0, skipped: 1 });
    const dup = await server.request('POST', '/contacts', {
      token: a.users.user.token,
      body: { name: 'X', number: '11 98765-0001' },
    });
    expect(dup.status).toBe(409);
  });
});
