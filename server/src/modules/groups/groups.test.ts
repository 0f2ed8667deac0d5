import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBaileys, fakeGroup, textMessage, type FakeBaileysSocket } from '../../../../tests/fakes/baileys-socket.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import type { ChannelRecord } from '../../channels/channel-adapter';
import type { BaileysAdapter } from '../../channels/baileys/baileys-adapter';
import { toChannelRecord } from '../../channels/channel-row';
import { waitFor } from '../messages/messages.test-support';
import { groupOperationsOf } from './groups.routes';

/**
 * WhatsApp groups of QR channels through the real app (issue #16 parts 5 and 6): the server runs
 * the real Baileys adapter on the injected fake socket (tests/fakes/baileys-socket.fake.ts),
 * which holds the phone's groups and records the group calls and sends.
 */

const FAKE = path.resolve('tests/fakes/baileys-socket.fake.ts');
const PHONE = '5511999990000';
let server: TestServer;

beforeAll(async () => {
  fakeBaileys.reset({ mode: 'manual' });
  server = await startTestServer({ BAILEYS_SOCKET_MODULE: FAKE, GROUP_OPERATION_DELAY_MS: '0' });
});
afterAll(async () => {
  await server?.close();
  fakeBaileys.reset();
});
beforeEach(() => fakeBaileys.configure({ notAdminOf: new Set() }));

type Tenant = Awaited<ReturnType<TestServer['createTenantWithUsers']>>;
let seq = 0;
const gid = () => `12036300000${String(Date.now()).slice(-6)}${String(++seq).padStart(3, '0')}@g.us`;

/** A tenant with a CONNECTED baileys channel on the fake socket, whose phone takes part in two groups. */
async function setup(): Promise<{ t: Tenant; channelId: number; sock: FakeBaileysSocket; g1: string; g2: string }> {
  const t = await server.createTenantWithUsers();
  const number = `55119${String(Date.now()).slice(-8)}`;
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO channels ("tenantId", name, type) VALUES ($1, $2, 'baileys') RETURNING *`,
    [t.tenant.id, `QR ${seq}`],
  );
  const before = fakeBaileys.sockets.length;
  records.push(toChannelRecord(row));
  const connecting = server.deps.channels.connect(toChannelRecord(row));
  const sock = await fakeBaileys.next(before);
  sock.open(number);
  await connecting;
  await waitFor(async () => (await server.deps.dataSource.query(`SELECT status FROM channels WHERE id = $1`, [row.id]))[0].status === 'CONNECTED', 'connected');
  const g1 = gid();
  const g2 = gid();
  fakeBaileys.groups.set(g1, fakeGroup(g1, 'Clientes VIP', ['5511911110001', '5511911110002'], { me: number, desc: 'Grupo dos clientes' }));
  fakeBaileys.groups.set(g2, fakeGroup(g2, 'Fornecedores', ['5511922220001'], { me: number }));
  return { t, channelId: row.id, sock, g1, g2 };
}

async function synced(ctx: Awaited<ReturnType<typeof setup>>) {
  const res = await server.request('POST', '/groups/sync', { token: ctx.t.users.admin.token, body: { whatsappId: ctx.channelId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const byJid = new Map<string, number>(res.body.items.map((g: { jid: string; id: number }) => [g.jid, g.id]));
  return { res, id1: byJid.get(ctx.g1)!, id2: byJid.get(ctx.g2)! };
}

async function wabaChannel(tenantId: number): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Oficial', 'waba', 'CONNECTED') RETURNING id`,
    [tenantId],
  );
  return row.id;
}

const records: ChannelRecord[] = [];
/** Events the sockets emitted so far are handled (the sessions' queues), then the pipeline's hooks and the operations. */
const idle = async () => {
  for (const record of records) await (server.deps.channels.adapterFor(record) as BaileysAdapter).session().idle();
  await server.deps.channels.idle();
  await groupOperationsOf(server.deps).idle();
  await server.deps.channels.idle();
};

async function finished(token: string, id: string) {
  let last: any;
  await waitFor(async () => {
    last = (await server.request('GET', `/groups/operations/${id}`, { token })).body;
    return last.status !== 'running';
  }, 'operation finished');
  return last;
}

describe('group sync', () => {
  it('POST /groups/sync stores the phone groups and members; GET /groups and the participants list them', async () => {
    const ctx = await setup();
    const { res, id1 } = await synced(ctx);
    expect(res.body).toMatchObject({ groups: 2, participants: 5 });
    const list = await server.request('GET', `/groups?whatsappId=${ctx.channelId}`, { token: ctx.t.users.super.token });
    expect(list.status).toBe(200);
    expect(list.body.map((g: any) => [g.subject, g.size, g.isAdmin, g.isMember])).toEqual([
      ['Clientes VIP', 3, true, true],
      ['Fornecedores', 2, true, true],
    ]);
    expect(list.body[0]).toMatchObject({ jid: ctx.g1, description: 'Grupo dos clientes', whatsappId: ctx.channelId });
    const members = await server.request('GET', `/groups/${id1}/participants`, { token: ctx.t.users.admin.token });
    expect(members.body.map((m: any) => m.number).sort()).toEqual(['5511911110001', '5511911110002', expect.any(String)].sort());
    // A group the phone left is kept, marked as left.
    fakeBaileys.groups.delete(ctx.g2);
    await synced(ctx);
    const after = await server.request('GET', `/groups?whatsappId=${ctx.channelId}`, { token: ctx.t.users.admin.token });
    expect(after.body.find((g: any) => g.jid === ctx.g2)).toMatchObject({ isMember: false });
  });

  it('a group the phone joins (groups.upsert) is stored without a sync', async () => {
    const ctx = await setup();
    const jid = gid();
    ctx.sock.groupsJoined([fakeGroup(jid, 'Novo grupo', ['5511933330001'], { me: PHONE })]);
    await idle();
    const list = await server.request('GET', `/groups?whatsappId=${ctx.channelId}`, { token: ctx.t.users.admin.token });
    expect(list.body.map((g: any) => g.subject)).toContain('Novo grupo');
  });

  it('a Cloud API channel answers 400 saying its type does not support groups', async () => {
    const ctx = await setup();
    const waba = await wabaChannel(ctx.t.tenant.id);
    const res = await server.request('POST', '/groups/sync', { token: ctx.t.users.admin.token, body: { whatsappId: waba } });
    expect([res.status, res.body.error]).toEqual([400, 'ERR_CHANNEL_OPERATION_UNSUPPORTED']);
    expect(res.body.message).toContain('(tipo waba) não suporta grupos');
    const rule = await server.request('POST', '/groups/banlist', { token: ctx.t.users.admin.token, body: { whatsappId: waba, number: '5511900000000' } });
    expect([rule.status, rule.body.error]).toEqual([400, 'ERR_CHANNEL_OPERATION_UNSUPPORTED']);
  });
});

describe('group rules on group events', () => {
  it('a banned number that joins is removed; the others get the greeting with a mention', async () => {
    const ctx = await setup();
    const { id1 } = await synced(ctx);
    const token = ctx.t.users.admin.token;
    const ban = await server.request('POST', '/groups/banlist', {
      token,
      body: { whatsappId: ctx.channelId, groupIds: [id1], number: '+55 (11) 96666-0001' },
    });
    expect(ban.status, JSON.stringify(ban.body)).toBe(201);
    expect(ban.body).toEqual([expect.objectContaining({ text: '5511966660001', groupId: id1, groupSubject: 'Clientes VIP', userId: ctx.t.users.admin.id })]);
    const greeting = await server.request('POST', '/groups/greetings', { token, body: { whatsappId: ctx.channelId, text: 'Bem-vindo(a) ao grupo!' } });
    expect(greeting.status).toBe(201);
    expect(greeting.body[0]).toMatchObject({ groupId: null, text: 'Bem-vindo(a) ao grupo!' });

    ctx.sock.participantsChanged(ctx.g1, ['5511966660001', '5511977770001'], 'add');
    await idle();
    const removals = ctx.sock.groupCalls.filter((c) => c.method === 'groupParticipantsUpdate');
    expect(removals).toEqual([{ method: 'groupParticipantsUpdate', args: [ctx.g1, ['5511966660001@s.whatsapp.net'], 'remove'] }]);
    expect(fakeBaileys.groups.get(ctx.g1)!.participants.some((p) => p.id.startsWith('5511966660001'))).toBe(false);
    const greetings = ctx.sock.sent.filter((s) => s.jid === ctx.g1);
    expect(greetings).toHaveLength(1);
    expect(greetings[0].content).toEqual({ text: '@5511977770001 Bem-vindo(a) ao grupo!', mentions: ['5511977770001@s.whatsapp.net'] });
    // The stored members follow the event: the newcomer is there.
    const members = await server.request('GET', `/groups/${id1}/participants`, { token });
    expect(members.body.map((m: any) => m.number)).toContain('5511977770001');
  });

  it('a member who leaves gets the farewell (per group); the greeting of another group is not sent', async () => {
    const ctx = await setup();
    const { id1, id2 } = await synced(ctx);
    const token = ctx.t.users.super.token;
    expect((await server.request('POST', '/groups/farewells', { token, body: { whatsappId: ctx.channelId, groupIds: [id1], text: 'Até logo!' } })).status).toBe(201);
    expect((await server.request('POST', '/groups/greetings', { token, body: { whatsappId: ctx.channelId, groupIds: [id2], text: 'Oi!' } })).status).toBe(201);
    ctx.sock.participantsChanged(ctx.g1, ['5511911110002'], 'remove');
    await idle();
    expect(ctx.sock.sent.map((s) => [s.jid, s.content])).toEqual([
      [ctx.g1, { text: '@5511911110002 Até logo!', mentions: ['5511911110002@s.whatsapp.net'] }],
    ]);
    ctx.sock.participantsChanged(ctx.g1, ['5511911110009'], 'add');
    await idle();
    expect(ctx.sock.sent).toHaveLength(1);
    const farewells = await server.request('GET', `/groups/farewells?whatsappId=${ctx.channelId}`, { token });
    expect(farewells.body).toEqual([expect.objectContaining({ text: 'Até logo!', groupSubject: 'Clientes VIP', whatsappName: expect.any(String) })]);
  });

  it('a forbidden word (stored lowercase) deletes the message for everyone and warns the sender, or removes them', async () => {
    const ctx = await setup();
    const { id1 } = await synced(ctx);
    const token = ctx.t.users.admin.token;
    const word = await server.request('POST', '/groups/wordlist', { token, body: { whatsappId: ctx.channelId, text: '  PROMOÇÃO ' } });
    expect(word.status).toBe(201);
    expect(word.body[0]).toMatchObject({ text: 'promoção', action: 'warn' });
    expect((await server.request('POST', '/groups/wordlist', { token, body: { whatsappId: ctx.channelId, groupIds: [id1], text: 'golpe', action: 'remove' } })).status).toBe(201);

    ctx.sock.receive([textMessage('5511911110001', 'Olha essa Promoção imperdível', { group: ctx.g1, id: 'GRP-BAD-1', pushName: 'Ana' })]);
    ctx.sock.receive([textMessage('5511911110001', 'bom dia a todos', { group: ctx.g1, id: 'GRP-OK-1', pushName: 'Ana' })]);
    await idle();
    const deletes = ctx.sock.sent.filter((s) => 'delete' in s.content);
    expect(deletes.map((s) => s.content)).toEqual([
      { delete: { remoteJid: ctx.g1, fromMe: false, id: 'GRP-BAD-1', participant: '5511911110001@s.whatsapp.net' } },
    ]);
    const warning = ctx.sock.sent.find((s) => typeof s.content.text === 'string' && s.content.text.includes('palavra proibida'));
    expect(warning?.content).toMatchObject({ mentions: ['5511911110001@s.whatsapp.net'] });
    const rows = await server.deps.dataSource.query(`SELECT "messageId", "isDeleted" FROM messages WHERE "whatsappId" = $1 ORDER BY id`, [ctx.channelId]);
    expect(rows.map((r: any) => [r.messageId, r.isDeleted])).toEqual([
      ['GRP-BAD-1', true],
      ['GRP-OK-1', false],
    ]);

    ctx.sock.receive([textMessage('5511911110002', 'isso é golpe!', { group: ctx.g1, id: 'GRP-BAD-2', pushName: 'Bia' })]);
    await idle();
    expect(ctx.sock.groupCalls.filter((c) => c.method === 'groupParticipantsUpdate')).toEqual([
      { method: 'groupParticipantsUpdate', args: [ctx.g1, ['5511911110002@s.whatsapp.net'], 'remove'] },
    ]);
  });
});

describe('mass operations', () => {
  it('massagrupos: a new title for the chosen groups, with a result per group (a group where the phone is not admin fails alone)', async () => {
    const ctx = await setup();
    const { id1, id2 } = await synced(ctx);
    fakeBaileys.configure({ notAdminOf: new Set([ctx.g2]) });
    const token = ctx.t.users.super.token;
    const started = await server.request('POST', '/groups/operations/update', {
      token,
      body: { whatsappId: ctx.channelId, groupIds: [id1, id2], subject: 'Promoções de maio', description: 'Ofertas' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ kind: 'update', status: 'running', total: 2 });
    const op = await finished(token, started.body.id);
    expect(op).toMatchObject({ status: 'done', done: 2 });
    expect(op.results).toEqual([
      { target: 'Clientes VIP', ok: true, message: 'Alterado: título, descrição.' },
      { target: 'Fornecedores', ok: false, message: expect.stringContaining('não é administradora') },
    ]);
    expect(fakeBaileys.groups.get(ctx.g1)).toMatchObject({ subject: 'Promoções de maio', desc: 'Ofertas' });
    const list = await server.request('GET', `/groups?whatsappId=${ctx.channelId}`, { token });
    expect(list.body.find((g: any) => g.id === id1)).toMatchObject({ subject: 'Promoções de maio', description: 'Ofertas' });
    // The progress went to the user who started it.
    const events = await server.deps.dataSource.query(
      `SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = 'group:operation' ORDER BY seq`,
      [ctx.t.tenant.id],
    );
    expect(events.map((e: any) => e.payload.done)).toEqual([1, 2]);
  });

  it('massagrupos: a picture (base64) goes to updateProfilePicture', async () => {
    const ctx = await setup();
    const { id1 } = await synced(ctx);
    const token = ctx.t.users.admin.token;
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
    const started = await server.request('POST', '/groups/operations/update', {
      token,
      body: { whatsappId: ctx.channelId, groupIds: [id1], imageBase64: `data:image/png;base64,${png}` },
    });
    expect(started.status).toBe(202);
    await finished(token, started.body.id);
    expect(ctx.sock.groupCalls.find((c) => c.method === 'updateProfilePicture')?.args[0]).toBe(ctx.g1);
  });

  it('massagrupos2: creates `quantity` numbered groups with the participants', async () => {
    const ctx = await setup();
    const token = ctx.t.users.admin.token;
    const started = await server.request('POST', '/groups/operations/create', {
      token,
      body: { whatsappId: ctx.channelId, name: 'Turma', participants: ['5511944440001', '(11) 94444-0002'], quantity: 2 },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const op = await finished(token, started.body.id);
    expect(op.results.map((r: any) => [r.target, r.ok])).toEqual([
      ['Turma 1', true],
      ['Turma 2', true],
    ]);
    expect(ctx.sock.groupCalls.filter((c) => c.method === 'groupCreate').map((c) => c.args)).toEqual([
      ['Turma 1', ['5511944440001@s.whatsapp.net', '11944440002@s.whatsapp.net']],
      ['Turma 2', ['5511944440001@s.whatsapp.net', '11944440002@s.whatsapp.net']],
    ]);
    const list = await server.request('GET', `/groups?whatsappId=${ctx.channelId}`, { token });
    expect(list.body.map((g: any) => g.subject)).toEqual(expect.arrayContaining(['Turma 1', 'Turma 2']));
  });

  it('massausuarios: adds and promotes numbers across groups; the participants export as CSV and XLSX', async () => {
    const ctx = await setup();
    const { id1, id2 } = await synced(ctx);
    const token = ctx.t.users.admin.token;
    const add = await server.request('POST', '/groups/operations/participants', {
      token,
      body: { whatsappId: ctx.channelId, groupIds: [id1, id2], numbers: ['5511955550001'], action: 'add' },
    });
    expect(add.status).toBe(202);
    const results = (await finished(token, add.body.id)).results;
    expect(results).toHaveLength(2); // one per group
    expect(results.every((r: any) => r.ok)).toBe(true);
    const promote = await server.request('POST', '/groups/operations/participants', {
      token,
      body: { whatsappId: ctx.channelId, groupIds: [id1], numbers: ['5511955550001'], action: 'promote' },
    });
    await finished(token, promote.body.id);
    expect(fakeBaileys.groups.get(ctx.g1)!.participants.find((p) => p.id === '5511955550001@s.whatsapp.net')?.admin).toBe('admin');

    const csv = await server.request('GET', `/groups/participants/export?whatsappId=${ctx.channelId}&groupIds=${id1},${id2}&format=csv`, { token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = String(csv.body).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Grupo;ID do grupo;Número;ID do participante;Administrador');
    expect(lines).toContain(`Clientes VIP;${ctx.g1};5511955550001;5511955550001@s.whatsapp.net;sim`);
    expect(lines).toContain(`Fornecedores;${ctx.g2};5511955550001;5511955550001@s.whatsapp.net;não`);
    expect(lines).toHaveLength(1 + 4 + 3);

    const res = await fetch(`${server.url}/groups/participants/export?whatsappId=${ctx.channelId}&groupIds=${id1}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.headers.get('content-disposition')).toContain('.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = book.getWorksheet('Participantes')!;
    expect(sheet.rowCount).toBe(1 + 4);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Grupo', 'ID do grupo', 'Número', 'ID do participante', 'Administrador']);
  });
});

describe('mentions and participants on group tickets', () => {
  async function groupTicket(ctx: Awaited<ReturnType<typeof setup>>): Promise<number> {
    ctx.sock.receive([textMessage('5511911110001', 'alguém aí?', { group: ctx.g1, id: `GRP-T-${++seq}`, pushName: 'Ana' })]);
    await idle();
    const [row] = await server.deps.dataSource.query(`SELECT id FROM tickets WHERE "whatsappId" = $1 AND "isGroup"`, [ctx.channelId]);
    return row.id;
  }

  it('mentionAllMessage reaches sendMessage with every participant in mentions; mentionMessage with the chosen numbers', async () => {
    const ctx = await setup();
    const ticketId = await groupTicket(ctx);
    const token = ctx.t.users.admin.token;
    const all = await server.request('POST', '/messages/mentionAllMessage', { token, body: { ticketId, body: 'Atenção, pessoal!' } });
    expect(all.status, JSON.stringify(all.body)).toBe(201);
    await waitFor(() => ctx.sock.sent.some((s) => s.content.text === 'Atenção, pessoal!'), 'mention-all sent');
    const sent = ctx.sock.sent.find((s) => s.content.text === 'Atenção, pessoal!')!;
    expect(sent.jid).toBe(ctx.g1);
    expect((sent.content.mentions as string[]).sort()).toEqual(fakeBaileys.groups.get(ctx.g1)!.participants.map((p) => p.id).sort());

    const one = await server.request('POST', '/messages/mentionMessage', {
      token,
      body: { ticketId, body: '@5511911110002 pode ver?', mentions: ['5511911110002'] },
    });
    expect(one.status).toBe(201);
    await waitFor(() => ctx.sock.sent.some((s) => s.content.text === '@5511911110002 pode ver?'), 'mention sent');
    expect(ctx.sock.sent.find((s) => s.content.text === '@5511911110002 pode ver?')!.content.mentions).toEqual(['5511911110002@s.whatsapp.net']);

    const list = await server.request('POST', '/messages/listParticipants', { token: ctx.t.users.super.token, body: { ticketId } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toMatchObject({ groupId: ctx.g1, subject: 'Clientes VIP' });
    expect(list.body.participants.map((p: any) => p.number)).toEqual(expect.arrayContaining(['5511911110001', '5511911110002']));
  });

  it('refuses a ticket that is not a group (400 naming ticketId) and a channel without groups', async () => {
    const ctx = await setup();
    ctx.sock.receive([textMessage('5511988880001', 'oi', { id: `DM-${++seq}` })]);
    await idle();
    const [dm] = await server.deps.dataSource.query(`SELECT id FROM tickets WHERE "whatsappId" = $1 AND NOT "isGroup"`, [ctx.channelId]);
    const res = await server.request('POST', '/messages/mentionAllMessage', { token: ctx.t.users.admin.token, body: { ticketId: dm.id, body: 'x' } });
    expect([res.status, res.body.error, res.body.fields?.[0]?.path]).toEqual([400, 'ERR_VALIDATION', 'ticketId']);
    // A group ticket on a Cloud API channel.
    const waba = await wabaChannel(ctx.t.tenant.id);
    const [contact] = await server.deps.dataSource.query(
      `INSERT INTO contacts ("tenantId", name, "isGroup") VALUES ($1, 'Grupo oficial', true) RETURNING id`,
      [ctx.t.tenant.id],
    );
    const [ticket] = await server.deps.dataSource.query(
      `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", channel, "isGroup", status) VALUES ($1, $2, $3, 'waba', true, 'open') RETURNING id`,
      [ctx.t.tenant.id, contact.id, waba],
    );
    const refused = await server.request('POST', '/messages/listParticipants', { token: ctx.t.users.admin.token, body: { ticketId: ticket.id } });
    expect([refused.status, refused.body.error]).toEqual([400, 'ERR_CHANNEL_OPERATION_UNSUPPORTED']);
    expect(refused.body.message).toContain('"Oficial" (waba) não oferece');
  });
});

describe('POST /contacts/sync on a QR channel', () => {
  it('imports the phone contacts the session received: created, updated (a name that was only the number), skipped', async () => {
    const ctx = await setup();
    const tenantId = ctx.t.tenant.id;
    await server.deps.dataSource.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, '5511970000002', '5511970000002')`, [tenantId]);
    await server.deps.dataSource.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Cliente do agente', '5511970000003')`, [tenantId]);
    ctx.sock.contactsSynced([
      { id: '5511970000001@s.whatsapp.net', name: 'Maria (celular)' },
      { id: '5511970000002@s.whatsapp.net', name: 'João Silva' },
      { id: '5511970000003@s.whatsapp.net', name: 'Outro nome' },
      { id: '123456789012345@lid', name: 'Sem número' },
      { id: `${gid()}`, name: 'um grupo' },
    ]);
    ctx.sock.contactsSynced([{ id: '5511970000004@s.whatsapp.net', notify: 'Zé' }], 'contacts.update');
    await idle();
    const waba = await wabaChannel(tenantId);
    const res = await server.request('POST', '/contacts/sync', { token: ctx.t.users.super.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 1, skipped: 2 });
    expect(res.body.channels).toEqual([
      expect.objectContaining({ whatsappId: ctx.channelId, created: 2, updated: 1, skipped: 2 }),
      expect.objectContaining({ whatsappId: waba, type: 'waba', error: 'ERR_CHANNEL_OPERATION_UNSUPPORTED', message: expect.stringContaining('apenas conexões por QR code') }),
    ]);
    const rows = await server.deps.dataSource.query(`SELECT name, number FROM contacts WHERE "tenantId" = $1 ORDER BY number`, [tenantId]);
    expect(rows.map((r: any) => [r.number, r.name])).toEqual([
      ['5511970000001', 'Maria (celular)'],
      ['5511970000002', 'João Silva'],
      ['5511970000003', 'Cliente do agente'],
      ['5511970000004', 'Zé'],
    ]);
    const again = await server.request('POST', '/contacts/sync', { token: ctx.t.users.admin.token, body: { whatsappId: ctx.channelId } });
    expect(again.body).toMatchObject({ created: 0, updated: 0, skipped: 5 });
  });
});

describe('route matrix: another tenant 404, agent 403, malformed 400', () => {
  it('holds for every group route', async () => {
    const ctx = await setup();
    const { id1 } = await synced(ctx);
    const other = await server.createTenantWithUsers();
    const token = ctx.t.users.admin.token;
    const ban = (await server.request('POST', '/groups/banlist', { token, body: { whatsappId: ctx.channelId, number: '5511900000001' } })).body[0];
    const word = (await server.request('POST', '/groups/wordlist', { token, body: { whatsappId: ctx.channelId, text: 'spam' } })).body[0];
    const hello = (await server.request('POST', '/groups/greetings', { token, body: { whatsappId: ctx.channelId, text: 'Oi' } })).body[0];
    const bye = (await server.request('POST', '/groups/farewells', { token, body: { whatsappId: ctx.channelId, text: 'Tchau' } })).body[0];
    const op = (await server.request('POST', '/groups/operations/update', { token, body: { whatsappId: ctx.channelId, groupIds: [id1], subject: 'X' } })).body;
    await idle();
    const w = ctx.channelId;

    const routes: { method: string; url: string; body?: unknown; malformed?: { url?: string; body?: unknown; field: string } }[] = [
      { method: 'GET', url: `/groups?whatsappId=${w}`, malformed: { url: '/groups?whatsappId=abc', field: 'whatsappId' } },
      { method: 'POST', url: '/groups/sync', body: { whatsappId: w }, malformed: { body: {}, field: 'whatsappId' } },
      { method: 'GET', url: `/groups/${id1}/participants` },
      {
        method: 'GET',
        url: `/groups/participants/export?whatsappId=${w}&groupIds=${id1}`,
        malformed: { url: `/groups/participants/export?whatsappId=${w}&groupIds=${id1}&format=pdf`, field: 'format' },
      },
      { method: 'GET', url: `/groups/banlist?whatsappId=${w}`, malformed: { url: '/groups/banlist?whatsappId=0', field: 'whatsappId' } },
      { method: 'POST', url: '/groups/banlist', body: { whatsappId: w, number: '5511900000002' }, malformed: { body: { whatsappId: w, number: '12' }, field: 'number' } },
      { method: 'DELETE', url: `/groups/banlist/${ban.id}` },
      { method: 'GET', url: `/groups/wordlist?whatsappId=${w}` },
      { method: 'POST', url: '/groups/wordlist', body: { whatsappId: w, text: 'x' }, malformed: { body: { whatsappId: w, text: 'x', action: 'ban' }, field: 'action' } },
      { method: 'DELETE', url: `/groups/wordlist/${word.id}` },
      { method: 'GET', url: `/groups/greetings?whatsappId=${w}` },
      { method: 'POST', url: '/groups/greetings', body: { whatsappId: w, text: 'x' }, malformed: { body: { whatsappId: w, text: '  ' }, field: 'text' } },
      { method: 'DELETE', url: `/groups/greetings/${hello.id}` },
      { method: 'GET', url: `/groups/farewells?whatsappId=${w}` },
      { method: 'POST', url: '/groups/farewells', body: { whatsappId: w, text: 'x' }, malformed: { body: { whatsappId: w, groupIds: 'all', text: 'x' }, field: 'groupIds' } },
      { method: 'DELETE', url: `/groups/farewells/${bye.id}` },
      {
        method: 'POST',
        url: '/groups/operations/update',
        body: { whatsappId: w, groupIds: [id1], subject: 'Y' },
        malformed: { body: { whatsappId: w, groupIds: [id1] }, field: 'subject' },
      },
      {
        method: 'POST',
        url: '/groups/operations/create',
        body: { whatsappId: w, name: 'G', participants: ['5511900000003'], quantity: 1 },
        malformed: { body: { whatsappId: w, name: 'G', participants: ['5511900000003'], quantity: 0 }, field: 'quantity' },
      },
      {
        method: 'POST',
        url: '/groups/operations/participants',
        body: { whatsappId: w, groupIds: [id1], numbers: ['5511900000004'], action: 'add' },
        malformed: { body: { whatsappId: w, groupIds: [], numbers: ['5511900000004'], action: 'add' }, field: 'groupIds' },
      },
      { method: 'GET', url: `/groups/operations/${op.id}`, malformed: { url: '/groups/operations/not-a-uuid', field: 'id' } },
    ];
    for (const r of routes) {
      const name = `${r.method} ${r.url}`;
      const foreign = await server.request(r.method, r.url, { token: other.users.admin.token, body: r.body });
      expect(foreign.status, `${name} other tenant: ${JSON.stringify(foreign.body)}`).toBe(404);
      // Groups are in the spec's main menu "for all": an agent is served like an admin.
      const agent = await server.request(r.method, r.url, { token: ctx.t.users.user.token, body: r.body });
      expect(agent.status, `${name} agent: ${JSON.stringify(agent.body)}`).toBeLessThan(300);
      if (r.malformed) {
        const bad = await server.request(r.method, r.malformed.url ?? r.url, { token, body: r.malformed.body });
        expect([bad.status, bad.body.error], `${name} malformed: ${JSON.stringify(bad.body)}`).toEqual([400, 'ERR_VALIDATION']);
        expect(bad.body.fields.map((f: any) => f.path), name).toContain(r.malformed.field);
      }
      expect((await server.request(r.method, r.url, { body: r.body })).status, `${name} no token`).toBe(401);
    }
    await idle();
  });
});
