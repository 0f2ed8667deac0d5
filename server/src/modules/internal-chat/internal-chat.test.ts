import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { CHAT_SOCKET_EVENTS, INTERNAL_CHAT_MESSAGE_MAX_DEFAULT, type ChatMessageDto } from '@shared/schemas/internal-chat';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { multipart } from '../messages/messages.test-support';
import {
  chatRowCount,
  chatTenant,
  createTeam,
  createTicket,
  send,
  setTeamMembers,
  type ChatUser,
} from './internal-chat.test-support';

/**
 * The internal chat's HTTP routes (docs/api.md "Internal chat"): history paging at depth, edit and
 * delete own messages only, read receipts and unread counts, clientId dedupe, attachments, ticket
 * links, scoped search, mentions, the message limit setting; and for every route: another tenant,
 * a non-member of the team, a malformed body (4xx with the text, nothing stored).
 * Sockets: internal-chat.realtime.test.ts.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const ds = () => server.deps.dataSource;

async function history(user: ChatUser, kind: 'user' | 'team', id: number, query = '') {
  const res = await server.request('GET', `/chat-interno/mensagens/${id}?kind=${kind}${query}`, { token: user.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { messages: ChatMessageDto[]; hasMore: boolean };
}

async function unreadTotal(user: ChatUser): Promise<number> {
  const res = await server.request('GET', '/chat-interno/count/mensagens', { token: user.token });
  expect(res.status).toBe(200);
  return res.body.count;
}

async function conversation(user: ChatUser, kind: 'user' | 'team', id: number) {
  const res = await server.request('GET', '/chat-interno/conversations', { token: user.token });
  expect(res.status).toBe(200);
  return (res.body as any[]).find((c) => c.kind === kind && c.id === id);
}

describe('sending and paging history', () => {
  it('stores a one-to-one message in one conversation for both directions, newest first', async () => {
    const t = await chatTenant(server);
    const first = await send(server, t.ana, 'user', t.bruno.id, 'Oi Bruno');
    const reply = await send(server, t.bruno, 'user', t.ana.id, 'Oi Ana', { replyToId: first.id });
    expect(first).toMatchObject({
      kind: 'user',
      toId: t.bruno.id,
      fromUserId: t.ana.id,
      fromUserName: 'Ana Paula',
      body: 'Oi Bruno',
      read: false,
    });
    expect(reply.replyTo).toEqual({ id: first.id, body: 'Oi Bruno', fromUserName: 'Ana Paula', deleted: false });
    const ofAna = await history(t.ana, 'user', t.bruno.id);
    const ofBruno = await history(t.bruno, 'user', t.ana.id);
    expect(ofAna.messages.map((m) => m.id)).toEqual([reply.id, first.id]);
    expect(ofBruno.messages.map((m) => m.id)).toEqual([reply.id, first.id]);
    expect(ofAna.hasMore).toBe(false);
    // Another pair of the tenant is another conversation.
    await send(server, t.ana, 'user', t.carla.id, 'Oi Carla');
    expect((await history(t.bruno, 'user', t.ana.id)).messages).toHaveLength(2);
    // A reply must quote a message of the same conversation.
    const foreignQuote = await server.request('POST', '/chat-interno/mensagens', {
      token: t.carla.token,
      body: { kind: 'user', id: t.ana.id, body: 'x', replyToId: first.id },
    });
    expect(foreignQuote.status).toBe(404);
    expect(foreignQuote.body.error).toBe('ERR_CHAT_MESSAGE_NOT_FOUND');
  });

  it('pages 1,200 interleaved messages by keyset to the oldest, each once, in order', async () => {
    const t = await chatTenant(server);
    const [low, high] = [Math.min(t.ana.id, t.bruno.id), Math.max(t.ana.id, t.bruno.id)];
    // Messages of the pair in both directions, interleaved with another conversation of Ana's.
    await ds().query(
      `INSERT INTO chat_messages ("tenantId", kind, "toId", "userLow", "userHigh", "fromUserId", body)
       SELECT $1, 'user',
              CASE WHEN g % 3 = 0 THEN $6::int WHEN g % 2 = 0 THEN $3::int ELSE $2::int END,
              CASE WHEN g % 3 = 0 THEN LEAST($2::int, $6::int) ELSE $4::int END,
              CASE WHEN g % 3 = 0 THEN GREATEST($2::int, $6::int) ELSE $5::int END,
              CASE WHEN g % 3 = 0 THEN $2::int WHEN g % 2 = 0 THEN $2::int ELSE $3::int END,
              'mensagem ' || g
         FROM generate_series(1, 1800) g`,
      [t.tenantId, t.ana.id, t.bruno.id, low, high, t.carla.id],
    );
    const expected: { id: number }[] = await ds().query(
      `SELECT id FROM chat_messages WHERE kind = 'user' AND "userLow" = $1 AND "userHigh" = $2 ORDER BY id DESC`,
      [low, high],
    );
    expect(expected).toHaveLength(1200);
    const seen: number[] = [];
    let before = '';
    let pages = 0;
    for (;;) {
      const page = await history(t.bruno, 'user', t.ana.id, `&limit=200${before}`);
      seen.push(...page.messages.map((m) => m.id));
      pages++;
      if (!page.hasMore) break;
      before = `&before=${page.messages[page.messages.length - 1].id}`;
    }
    expect(pages).toBe(6);
    expect(seen).toEqual(expected.map((r) => r.id));
    // The default page is INTERNAL_CHAT_PAGE_SIZE (50).
    const first = await history(t.ana, 'user', t.bruno.id);
    expect(first.messages).toHaveLength(50);
    expect(first.hasMore).toBe(true);
  });

  it('plans a deep page as a range of the conversation index, not a walk of the table', async () => {
    const t = await chatTenant(server);
    const [low, high] = [Math.min(t.ana.id, t.bruno.id), Math.max(t.ana.id, t.bruno.id)];
    // A pair that went quiet under a busy tenant: its messages are the oldest of the table.
    await ds().query(
      `INSERT INTO chat_messages ("tenantId", kind, "toId", "userLow", "userHigh", "fromUserId", body)
       SELECT $1, 'user', $3::int, $2::int, $3::int, $2::int, 'antiga ' || g FROM generate_series(1, 500) g`,
      [t.tenantId, low, high],
    );
    await ds().query(
      `INSERT INTO chat_messages ("tenantId", kind, "toId", "fromUserId", body)
       SELECT $1, 'team', $2::int, $3::int, 'recente ' || g FROM generate_series(1, 5000) g`,
      [t.tenantId, await createTeam(server, t, [t.ana, t.carla]), t.ana.id],
    );
    await ds().query(`ANALYZE chat_messages`);
    const [middle] = await ds().query(
      `SELECT id FROM chat_messages WHERE kind = 'user' AND "userLow" = $1 AND "userHigh" = $2 ORDER BY id DESC OFFSET 250 LIMIT 1`,
      [low, high],
    );
    const plan: { 'QUERY PLAN': string }[] = await ds().query(
      `EXPLAIN SELECT p.id FROM chat_messages p WHERE p.kind = 'user' AND p."userLow" = $1 AND p."userHigh" = $2 AND p.id < $3 ORDER BY p.id DESC LIMIT 51`,
      [low, high, middle.id],
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('chat_messages_pair_idx');
    expect(text).not.toMatch(/Seq Scan/);
  });
});

describe('edit and delete own messages', () => {
  it('lets the author edit and delete; refuses others, deleted messages and empty text', async () => {
    const t = await chatTenant(server);
    const m = await send(server, t.ana, 'user', t.bruno.id, 'Texto original');
    const quote = await send(server, t.bruno, 'user', t.ana.id, 'Respondendo', { replyToId: m.id });

    const notOwn = await server.request('PUT', `/chat-interno/mensagens/${m.id}/edit`, {
      token: t.bruno.token,
      body: { body: 'x' },
    });
    expect(notOwn.status).toBe(403);
    expect(notOwn.body).toMatchObject({
      error: 'ERR_CHAT_NOT_OWN_MESSAGE',
      message: 'Só é possível alterar as próprias mensagens.',
    });
    const empty = await server.request('PUT', `/chat-interno/mensagens/${m.id}/edit`, {
      token: t.ana.token,
      body: { body: '   ' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.fields[0]).toMatchObject({ path: 'body', message: 'Digite uma mensagem ou anexe um arquivo.' });

    const edited = await server.request('PUT', `/chat-interno/mensagens/${m.id}/edit`, {
      token: t.ana.token,
      body: { body: 'Texto corrigido' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: m.id, body: 'Texto corrigido' });
    expect(edited.body.editedAt).not.toBeNull();
    const updateEvent = await lastEvent(server, t.tenantId, CHAT_SOCKET_EVENTS.messageUpdate);
    expect(updateEvent?.payload.message).toMatchObject({ id: m.id, body: 'Texto corrigido' });
    expect(updateEvent?.audience).toEqual({ scope: 'users', userIds: [t.ana.id, t.bruno.id].sort((a, b) => a - b) });

    const notOwnDelete = await server.request('DELETE', `/chat-interno/mensagens/${m.id}`, { token: t.bruno.token });
    expect(notOwnDelete.status).toBe(403);
    const deleted = await server.request('DELETE', `/chat-interno/mensagens/${m.id}`, { token: t.ana.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: m.id, body: '', mediaUrl: null });
    expect(deleted.body.deletedAt).not.toBeNull();
    // A retry of the delete answers the same message and records nothing.
    const events = await eventCount(server, t.tenantId);
    const again = await server.request('DELETE', `/chat-interno/mensagens/${m.id}`, { token: t.ana.token });
    expect(again.status).toBe(200);
    expect(again.body.deletedAt).toBe(deleted.body.deletedAt);
    expect(await eventCount(server, t.tenantId)).toBe(events);
    const editDeleted = await server.request('PUT', `/chat-interno/mensagens/${m.id}/edit`, {
      token: t.ana.token,
      body: { body: 'volta' },
    });
    expect(editDeleted.status).toBe(409);
    expect(editDeleted.body).toMatchObject({ error: 'ERR_CHAT_MESSAGE_DELETED', message: 'Mensagem apagada.' });

    const page = await history(t.bruno, 'user', t.ana.id);
    expect(page.messages.find((x) => x.id === m.id)).toMatchObject({ body: '', deletedAt: deleted.body.deletedAt });
    expect(page.messages.find((x) => x.id === quote.id)?.replyTo).toEqual({
      id: m.id,
      body: '',
      fromUserName: 'Ana Paula',
      deleted: true,
    });
    // The text is gone from the store, not only from the answers.
    const [row] = await ds().query(`SELECT body FROM chat_messages WHERE id = $1`, [m.id]);
    expect(row.body).toBe('');
  });
});

describe('read receipts and unread counts', () => {
  it('counts unread per conversation and in total, and marks read and unread', async () => {
    const t = await chatTenant(server);
    const sent: ChatMessageDto[] = [];
    for (const body of ['um', 'dois', 'três']) sent.push(await send(server, t.ana, 'user', t.bruno.id, body));
    const team = await createTeam(server, t, [t.ana, t.bruno, t.carla]);
    await send(server, t.carla, 'team', team, 'reunião às 10');
    // Own messages are never unread.
    await send(server, t.bruno, 'user', t.ana.id, 'já vou ver');

    expect((await conversation(t.bruno, 'user', t.ana.id)).unread).toBe(3);
    expect((await conversation(t.bruno, 'team', team)).unread).toBe(1);
    expect(await unreadTotal(t.bruno)).toBe(4);
    expect(await unreadTotal(t.ana)).toBe(2);
    expect((await history(t.ana, 'user', t.bruno.id)).messages.find((m) => m.id === sent[2].id)).toMatchObject({
      read: false,
      readCount: 0,
    });

    const read = await server.request('PUT', `/chat-interno/mensagens/${t.ana.id}`, {
      token: t.bruno.token,
      body: { kind: 'user' },
    });
    expect(read.status).toBe(200);
    const newest = (await history(t.bruno, 'user', t.ana.id)).messages[0].id;
    expect(read.body).toEqual({ kind: 'user', id: t.ana.id, userId: t.bruno.id, lastReadId: newest, unread: 0 });
    expect(await unreadTotal(t.bruno)).toBe(1);
    // Ana sees her messages read (receipts); Bruno's own last message is not read by Ana yet.
    const ofAna = await history(t.ana, 'user', t.bruno.id);
    expect(ofAna.messages.filter((m) => m.fromUserId === t.ana.id).map((m) => [m.read, m.readCount])).toEqual([
      [true, 1],
      [true, 1],
      [true, 1],
    ]);
    expect(ofAna.messages.find((m) => m.fromUserId === t.bruno.id)).toMatchObject({ read: false, readCount: 0 });
    // chat:read names the conversation as each recipient does.
    const reads = await ds().query(
      `SELECT payload, audience FROM domain_events WHERE "tenantId" = $1 AND name = 'chat:read' ORDER BY seq`,
      [t.tenantId],
    );
    expect(reads).toEqual([
      {
        payload: { kind: 'user', id: t.ana.id, userId: t.bruno.id, lastReadId: newest },
        audience: { scope: 'user', userId: t.bruno.id },
      },
      {
        payload: { kind: 'user', id: t.bruno.id, userId: t.bruno.id, lastReadId: newest },
        audience: { scope: 'user', userId: t.ana.id },
      },
    ]);
    // Marking read again changes nothing and records nothing.
    const events = await eventCount(server, t.tenantId);
    await server.request('PUT', `/chat-interno/mensagens/${t.ana.id}?kind=user`, { token: t.bruno.token });
    expect(await eventCount(server, t.tenantId)).toBe(events);

    // Unread again from the second message: two of Ana's are unread.
    const unread = await server.request('PUT', `/chat-interno/mensagens/${sent[1].id}/nao-lida`, { token: t.bruno.token });
    expect(unread.status).toBe(200);
    expect(unread.body).toMatchObject({ kind: 'user', id: t.ana.id, userId: t.bruno.id, lastReadId: sent[1].id - 1, unread: 2 });
    expect((await conversation(t.bruno, 'user', t.ana.id)).unread).toBe(2);
    expect(await unreadTotal(t.bruno)).toBe(3);

    // Team receipts: how many members other than the author read it.
    const teamRead = await server.request('PUT', `/chat-interno/mensagens/${team}?kind=team`, { token: t.ana.token });
    expect(teamRead.status).toBe(200);
    let msg = (await history(t.carla, 'team', team)).messages[0];
    expect(msg).toMatchObject({ readCount: 1, read: false });
    await server.request('PUT', `/chat-interno/mensagens/${team}`, { token: t.bruno.token, body: { kind: 'team' } });
    msg = (await history(t.carla, 'team', team)).messages[0];
    expect(msg).toMatchObject({ readCount: 2, read: true });
    const teamEvent = await lastEvent(server, t.tenantId, CHAT_SOCKET_EVENTS.read);
    expect(teamEvent?.payload).toEqual({ kind: 'team', id: team, userId: t.bruno.id, lastReadId: msg.id });
    expect(teamEvent?.audience.userIds).toEqual([t.ana.id, t.bruno.id, t.carla.id].sort((a, b) => a - b));
  });
});

describe('clientId dedupe', () => {
  it('answers a retry with the stored message (200), one row and one event, also for concurrent retries', async () => {
    const t = await chatTenant(server);
    const body = { kind: 'user', id: t.bruno.id, body: 'uma vez só', clientId: 'retry-1' };
    const first = await server.request('POST', '/chat-interno/mensagens', { token: t.ana.token, body });
    expect(first.status).toBe(201);
    const events = await eventCount(server, t.tenantId);
    const retry = await server.request('POST', '/chat-interno/mensagens', { token: t.ana.token, body });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await eventCount(server, t.tenantId)).toBe(events);

    const concurrent = { ...body, clientId: 'retry-2', body: 'duas ao mesmo tempo' };
    const answers = await Promise.all(
      [0, 1, 2].map(() => server.request('POST', '/chat-interno/mensagens', { token: t.ana.token, body: concurrent })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await chatRowCount(server, t.tenantId)).toBe(2);
    // The same clientId of another sender is another message.
    const other = await server.request('POST', '/chat-interno/mensagens', {
      token: t.bruno.token,
      body: { kind: 'user', id: t.ana.id, body: 'outro', clientId: 'retry-1' },
    });
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
  });
});

describe('attachments', () => {
  it('stores a file in the private media store and serves it to the conversation users only', async () => {
    const t = await chatTenant(server);
    const other = await chatTenant(server);
    const pdf = Buffer.from('%PDF-1.4 relatório interno');
    const res = await multipart(
      server,
      'POST',
      '/chat-interno/mensagens',
      t.ana.token,
      { kind: 'user', id: String(t.bruno.id), body: 'segue' },
      [{ name: 'relatório.pdf', type: 'application/pdf', bytes: pdf }],
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      body: 'segue',
      mediaName: 'relatório.pdf',
      mimeType: 'application/pdf',
      mediaUrl: `/chat-interno/media/${res.body.id}`,
    });
    const [stored] = await ds().query(`SELECT "mediaPath" FROM chat_messages WHERE id = $1`, [res.body.id]);
    const file = path.join(server.deps.config.dataDir, 'uploads', String(t.tenantId), stored.mediaPath);
    expect(stored.mediaPath).toMatch(/^messages\//);
    expect(existsSync(file)).toBe(true);

    const get = (token: string) => fetch(`${server.url}${res.body.mediaUrl}`, { headers: { authorization: `Bearer ${token}` } });
    const byBruno = await get(t.bruno.token);
    expect(byBruno.status).toBe(200);
    expect(Buffer.from(await byBruno.arrayBuffer())).toEqual(pdf);
    expect(byBruno.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(byBruno.headers.get('cache-control')).toBe('private, no-store');
    expect((await get(t.ana.token)).status).toBe(200);
    // Not for a colleague outside the conversation, another tenant, or without a session.
    const byCarla = await get(t.carla.token);
    expect(byCarla.status).toBe(404);
    expect(((await byCarla.json()) as { error: string }).error).toBe('ERR_CHAT_MESSAGE_NOT_FOUND');
    expect((await get(other.admin.token)).status).toBe(404);
    expect((await fetch(`${server.url}${res.body.mediaUrl}`)).status).toBe(401);

    // A file only (no text) is a message; two files are refused and leave nothing behind.
    const only = await multipart(
      server,
      'POST',
      '/chat-interno/mensagens',
      t.ana.token,
      { kind: 'user', id: String(t.bruno.id) },
      [{ name: 'foto.png', type: 'image/png', bytes: Buffer.from('\x89PNG fake') }],
    );
    expect(only.status).toBe(201);
    expect(only.body).toMatchObject({ body: '', mediaName: 'foto.png' });
    const dir = path.join(server.deps.config.dataDir, 'uploads', String(t.tenantId), 'messages');
    const filesBefore = readdirSync(dir).length;
    const rows = await chatRowCount(server, t.tenantId);
    const two = await multipart(
      server,
      'POST',
      '/chat-interno/mensagens',
      t.ana.token,
      { kind: 'user', id: String(t.bruno.id) },
      [
        { name: 'a.png', type: 'image/png', bytes: Buffer.from('a') },
        { name: 'b.png', type: 'image/png', bytes: Buffer.from('b') },
      ],
    );
    expect(two.status).toBe(400);
    expect(two.body.fields[0]).toEqual({ path: 'medias', message: 'envie um arquivo por mensagem' });
    const exe = await multipart(
      server,
      'POST',
      '/chat-interno/mensagens',
      t.ana.token,
      { kind: 'user', id: String(t.bruno.id) },
      [{ name: 'setup.exe', type: 'application/octet-stream', bytes: Buffer.from('MZ') }],
    );
    expect(exe.status).toBe(415);
    expect(exe.body.message).toBe('Arquivo rejeitado devido ao tamanho ou tipo incompatível.');
    const toStranger = await multipart(
      server,
      'POST',
      '/chat-interno/mensagens',
      t.ana.token,
      { kind: 'user', id: String(other.ana.id) },
      [{ name: 'c.png', type: 'image/png', bytes: Buffer.from('c') }],
    );
    expect(toStranger.status).toBe(404);
    expect(readdirSync(dir)).toHaveLength(filesBefore);
    expect(await chatRowCount(server, t.tenantId)).toBe(rows);

    // Deleting the message removes its file and its URL.
    const del = await server.request('DELETE', `/chat-interno/mensagens/${res.body.id}`, { token: t.ana.token });
    expect(del.body).toMatchObject({ mediaUrl: null, mediaName: null, mimeType: null });
    expect(existsSync(file)).toBe(false);
    expect((await get(t.bruno.token)).status).toBe(404);
  });

  it('serves a team file to current members only', async () => {
    const t = await chatTenant(server);
    const team = await createTeam(server, t, [t.ana, t.bruno]);
    const res = await multipart(server, 'POST', '/chat-interno/mensagens', t.ana.token, { kind: 'team', id: String(team) }, [
      { name: 'nota.txt', type: 'text/plain', bytes: Buffer.from('nota') },
    ]);
    expect(res.status).toBe(201);
    const get = (u: ChatUser) => fetch(`${server.url}${res.body.mediaUrl}`, { headers: { authorization: `Bearer ${u.token}` } });
    expect((await get(t.bruno)).status).toBe(200);
    expect((await get(t.carla)).status).toBe(404);
    await setTeamMembers(server, t, team, [t.ana, t.carla]);
    expect((await get(t.bruno)).status).toBe(404);
    expect((await get(t.carla)).status).toBe(200);
  });
});

describe('ticket link', () => {
  it('links a ticket of the tenant; another tenant ticket is not found and nothing is stored', async () => {
    const t = await chatTenant(server);
    const other = await chatTenant(server);
    const ticket = await createTicket(server, t.tenantId);
    const m = await send(server, t.ana, 'user', t.bruno.id, 'olha este atendimento', { ticketId: ticket });
    expect(m.ticketId).toBe(ticket);
    expect((await history(t.bruno, 'user', t.ana.id)).messages[0].ticketId).toBe(ticket);
    const foreign = await createTicket(server, other.tenantId);
    const rows = await chatRowCount(server, t.tenantId);
    const refused = await server.request('POST', '/chat-interno/mensagens', {
      token: t.ana.token,
      body: { kind: 'user', id: t.bruno.id, body: 'x', ticketId: foreign },
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: 'ERR_NO_TICKET_FOUND', message: 'Atendimento não encontrado.' });
    expect(await chatRowCount(server, t.tenantId)).toBe(rows);
  });
});

describe('search', () => {
  it('finds text of the caller conversations only, case and accents aside', async () => {
    const t = await chatTenant(server);
    const other = await chatTenant(server);
    const mine = await createTeam(server, t, [t.ana, t.bruno]);
    const notMine = await createTeam(server, t, [t.bruno, t.carla]);
    const a = await send(server, t.ana, 'user', t.bruno.id, 'O Orçamento foi aprovado');
    const b = await send(server, t.bruno, 'team', mine, 'orcamento da equipe');
    await send(server, t.bruno, 'team', notMine, 'orçamento secreto');
    await send(server, t.bruno, 'user', t.carla.id, 'orçamento entre Bruno e Carla');
    await send(server, other.ana, 'user', other.bruno.id, 'orçamento de outra empresa');
    const deleted = await send(server, t.ana, 'user', t.carla.id, 'orçamento apagado');
    await server.request('DELETE', `/chat-interno/mensagens/${deleted.id}`, { token: t.ana.token });

    const res = await server.request('GET', '/chat-interno/search?q=ORÇAMENTO', { token: t.ana.token });
    expect(res.status).toBe(200);
    expect(res.body.map((m: ChatMessageDto) => m.id)).toEqual([b.id, a.id]);
    expect(res.body[0]).toMatchObject({ kind: 'team', toId: mine, body: 'orcamento da equipe' });
    // Wildcards are text.
    expect((await server.request('GET', '/chat-interno/search?q=%25%25', { token: t.ana.token })).body).toEqual([]);
    const short = await server.request('GET', '/chat-interno/search?q=o', { token: t.ana.token });
    expect(short.status).toBe(400);
    expect(short.body.fields[0]).toEqual({ path: 'q', message: 'digite ao menos 2 letras' });
    // Removed from the team: its messages are no longer found.
    await setTeamMembers(server, t, mine, [t.bruno]);
    expect(
      (await server.request('GET', '/chat-interno/search?q=orcamento', { token: t.ana.token })).body.map(
        (m: ChatMessageDto) => m.id,
      ),
    ).toEqual([a.id]);
  });
});

describe('mentions', () => {
  it('notifies each mentioned member once, through the bell, and never again on edit or retry', async () => {
    const t = await chatTenant(server);
    const team = await createTeam(server, t, [t.ana, t.bruno, t.carla], 'Suporte');
    const body = { kind: 'team', id: team, body: 'Bom dia @ana paula, veja isso com @Bruno e @Bru', clientId: 'mention-1' };
    const sent = await server.request('POST', '/chat-interno/mensagens', { token: t.carla.token, body });
    expect(sent.status).toBe(201);
    const inbox = async (u: ChatUser) => (await server.request('GET', '/notifications', { token: u.token })).body.notifications;
    const ofAna = await inbox(t.ana);
    expect(ofAna).toHaveLength(1);
    expect(ofAna[0]).toMatchObject({
      kind: 'mention',
      link: `/chat-privado?kind=team&id=${team}`,
      read: false,
      message: 'Carla mencionou você em Suporte: Bom dia @ana paula, veja isso com @Bruno e @Bru',
    });
    expect(await inbox(t.bruno)).toHaveLength(1);
    expect(await inbox(t.carla)).toEqual([]);
    const event = await lastEvent(server, t.tenantId, SOCKET_EVENTS.notificationCreate);
    expect(event?.audience.scope).toBe('user');

    await server.request('POST', '/chat-interno/mensagens', { token: t.carla.token, body });
    await server.request('PUT', `/chat-interno/mensagens/${sent.body.id}/edit`, {
      token: t.carla.token,
      body: { body: 'agora @Ana Paula de novo' },
    });
    expect(await inbox(t.ana)).toHaveLength(1);

    // A one-to-one mention links the conversation as the mentioned user names it (the author).
    await send(server, t.ana, 'user', t.bruno.id, '@bruno pode ver?');
    const [direct] = await inbox(t.bruno);
    expect(direct).toMatchObject({ kind: 'mention', link: `/chat-privado?kind=user&id=${t.ana.id}` });
    // A colleague outside the conversation is not notified.
    await send(server, t.ana, 'user', t.bruno.id, 'fala com a @Carla');
    expect(await inbox(t.carla)).toEqual([]);
  });
});

describe('message length limit (internalChatMessageMax)', () => {
  it('applies the tenant setting at once on send and edit', async () => {
    const t = await chatTenant(server);
    const long = 'x'.repeat(INTERNAL_CHAT_MESSAGE_MAX_DEFAULT + 1);
    const tooLong = await server.request('POST', '/chat-interno/mensagens', {
      token: t.ana.token,
      body: { kind: 'user', id: t.bruno.id, body: long },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      error: 'ERR_CHAT_MESSAGE_TOO_LONG',
      message: `Mensagem maior que o limite de ${INTERNAL_CHAT_MESSAGE_MAX_DEFAULT} caracteres.`,
    });

    const set = await server.request('PUT', '/settings/internalChatMessageMax', { token: t.admin.token, body: { value: 10 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const eleven = await server.request('POST', '/chat-interno/mensagens', {
      token: t.ana.token,
      body: { kind: 'user', id: t.bruno.id, body: '12345678901' },
    });
    expect(eleven.status).toBe(400);
    expect(eleven.body.message).toBe('Mensagem maior que o limite de 10 caracteres.');
    const ten = await send(server, t.ana, 'user', t.bruno.id, '1234567890');
    const edit = await server.request('PUT', `/chat-interno/mensagens/${ten.id}/edit`, {
      token: t.ana.token,
      body: { body: '12345678901' },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.error).toBe('ERR_CHAT_MESSAGE_TOO_LONG');
    expect(await chatRowCount(server, t.tenantId)).toBe(1);

    for (const value of ['0', '20001', 'dez', '1.5', '-3']) {
      const bad = await server.request('PUT', '/settings/internalChatMessageMax', { token: t.admin.token, body: { value } });
      expect(bad.status, value).toBe(400);
    }
    const byAgent = await server.request('PUT', '/settings/internalChatMessageMax', { token: t.ana.token, body: { value: 50 } });
    expect(byAgent.status).toBe(403);
    // Another tenant keeps the default.
    const other = await chatTenant(server);
    await send(server, other.ana, 'user', other.bruno.id, '12345678901');
  });
});

describe('every route: another tenant, a non-member, a malformed body', () => {
  /** Tenant A with a one-to-one (Ana-Bruno), a team room (Ana, Bruno) and Carla outside the team; tenant B. */
  async function world() {
    const a = await chatTenant(server);
    const b = await chatTenant(server);
    const team = await createTeam(server, a, [a.ana, a.bruno]);
    const direct = await send(server, a.ana, 'user', a.bruno.id, 'direta');
    const room = await send(server, a.ana, 'team', team, 'na sala');
    return { a, b, team, direct, room };
  }

  it('answers not found to another tenant and to a non-member, recording nothing', async () => {
    const { a, b, team, direct, room } = await world();
    const outsiders: [string, ChatUser][] = [
      ['another tenant', b.ana],
      ['another tenant admin', b.admin],
      ['non-member', a.carla],
      // No profile opens others' conversations: the tenant's admin is not in the room nor the pair.
      ['admin non-member', a.admin],
    ];
    const rows = await chatRowCount(server, a.tenantId);
    const events = await eventCount(server, a.tenantId);
    for (const [who, u] of outsiders) {
      const call = (method: string, url: string, body?: unknown) => server.request(method, url, { token: u.token, body });
      const expect404 = async (res: Promise<{ status: number; body: any }>, code: string, what: string) => {
        const r = await res;
        expect(r.status, `${who}: ${what} ${JSON.stringify(r.body)}`).toBe(404);
        expect(r.body.error, `${who}: ${what}`).toBe(code);
      };
      await expect404(
        call('GET', `/chat-interno/mensagens/${team}?kind=team`),
        'ERR_CHAT_CONVERSATION_NOT_FOUND',
        'team history',
      );
      await expect404(
        call('POST', '/chat-interno/mensagens', { kind: 'team', id: team, body: 'x' }),
        'ERR_CHAT_CONVERSATION_NOT_FOUND',
        'team send',
      );
      await expect404(
        call('PUT', `/chat-interno/mensagens/${team}`, { kind: 'team' }),
        'ERR_CHAT_CONVERSATION_NOT_FOUND',
        'team read',
      );
      await expect404(call('PUT', `/chat-interno/mensagens/${room.id}/nao-lida`), 'ERR_CHAT_MESSAGE_NOT_FOUND', 'team unread');
      await expect404(
        call('PUT', `/chat-interno/mensagens/${room.id}/edit`, { body: 'x' }),
        'ERR_CHAT_MESSAGE_NOT_FOUND',
        'team edit',
      );
      await expect404(call('DELETE', `/chat-interno/mensagens/${room.id}`), 'ERR_CHAT_MESSAGE_NOT_FOUND', 'team delete');
      await expect404(call('GET', `/chat-interno/media/${room.id}`), 'ERR_CHAT_MESSAGE_NOT_FOUND', 'team media');
      // The one-to-one of others.
      await expect404(
        call('PUT', `/chat-interno/mensagens/${direct.id}/nao-lida`),
        'ERR_CHAT_MESSAGE_NOT_FOUND',
        'direct unread',
      );
      await expect404(
        call('PUT', `/chat-interno/mensagens/${direct.id}/edit`, { body: 'x' }),
        'ERR_CHAT_MESSAGE_NOT_FOUND',
        'direct edit',
      );
      await expect404(call('DELETE', `/chat-interno/mensagens/${direct.id}`), 'ERR_CHAT_MESSAGE_NOT_FOUND', 'direct delete');
      // Lists: nothing of tenant A's conversations.
      const search = await call('GET', '/chat-interno/search?q=na sala');
      expect(search.body).toEqual([]);
      const list = await call('GET', '/chat-interno/conversations');
      expect(list.body.some((c: any) => c.kind === 'team' && c.id === team)).toBe(false);
      expect(await unreadTotal(u)).toBe(0);
    }
    // Another tenant's users are not colleagues.
    const bList = (await server.request('GET', '/chat-interno/conversations', { token: b.ana.token })).body;
    expect(bList.map((c: any) => c.id).sort()).toEqual([b.admin.id, b.bruno.id, b.carla.id].sort((x, y) => x - y));
    for (const [method, url, body] of [
      ['GET', `/chat-interno/mensagens/${a.ana.id}?kind=user`, undefined],
      ['POST', '/chat-interno/mensagens', { kind: 'user', id: a.ana.id, body: 'x' }],
      ['PUT', `/chat-interno/mensagens/${a.ana.id}`, { kind: 'user' }],
    ] as const) {
      const r = await server.request(method, url, { token: b.ana.token, body });
      expect(r.status, `${method} ${url}`).toBe(404);
      expect(r.body.error).toBe('ERR_CHAT_CONVERSATION_NOT_FOUND');
    }
    expect(await chatRowCount(server, a.tenantId)).toBe(rows);
    expect(await eventCount(server, a.tenantId)).toBe(events);
    // Nothing was recorded in tenant B either (failed writes).
    expect(await chatRowCount(server, b.tenantId)).toBe(0);
  });

  it('refuses malformed bodies, queries and ids with 400 and the field text, storing nothing', async () => {
    const { a, team, direct } = await world();
    const rows = await chatRowCount(server, a.tenantId);
    const events = await eventCount(server, a.tenantId);
    const call = (method: string, url: string, body?: unknown) => server.request(method, url, { token: a.ana.token, body });
    const cases: [string, string, unknown, string, string][] = [
      ['POST', '/chat-interno/mensagens', { kind: 'grupo', id: team, body: 'x' }, 'kind', "deve ser 'user' ou 'team'"],
      [
        'POST',
        '/chat-interno/mensagens',
        { kind: 'user', id: 'abc', body: 'x' },
        'id',
        'deve ser um id numérico entre 1 e 2147483647',
      ],
      ['POST', '/chat-interno/mensagens', { kind: 'user', id: a.bruno.id, body: 7 }, 'body', 'deve ser um texto'],
      ['POST', '/chat-interno/mensagens', { kind: 'user', id: a.bruno.id, body: 'x', extra: 1 }, 'extra', 'campo desconhecido'],
      [
        'POST',
        '/chat-interno/mensagens',
        { kind: 'user', id: a.bruno.id, body: 'x'.repeat(20001) },
        'body',
        'no máximo 20000 caracteres',
      ],
      ['PUT', `/chat-interno/mensagens/${direct.id}/edit`, { body: 'x', kind: 'user' }, 'kind', 'campo desconhecido'],
      ['PUT', `/chat-interno/mensagens/${direct.id}/edit`, {}, 'body', 'deve ser um texto'],
      ['PUT', `/chat-interno/mensagens/${a.bruno.id}`, { kind: 'sala' }, 'kind', "deve ser 'user' ou 'team'"],
      ['PUT', `/chat-interno/mensagens/${direct.id}/nao-lida`, { now: true }, 'now', 'campo desconhecido'],
      ['GET', `/chat-interno/mensagens/${a.bruno.id}?kind=user&limit=201`, undefined, 'limit', ''],
      [
        'GET',
        `/chat-interno/mensagens/${a.bruno.id}?kind=user&before=x`,
        undefined,
        'before',
        'deve ser um id numérico entre 1 e 2147483647',
      ],
      ['GET', `/chat-interno/mensagens/abc?kind=user`, undefined, 'id', 'deve ser um id numérico entre 1 e 2147483647'],
      ['DELETE', `/chat-interno/mensagens/0`, undefined, 'messageId', 'deve ser um id numérico entre 1 e 2147483647'],
      ['GET', `/chat-interno/media/99999999999`, undefined, 'messageId', 'deve ser um id numérico entre 1 e 2147483647'],
      ['GET', `/chat-interno/search?q=ok&limit=0`, undefined, 'limit', ''],
    ];
    for (const [method, url, body, field, text] of cases) {
      const r = await call(method, url, body);
      expect(r.status, `${method} ${url} ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.error).toBe('ERR_VALIDATION');
      const f = r.body.fields.find((x: { path: string }) => x.path === field);
      expect(f, `${method} ${url}: ${JSON.stringify(r.body.fields)}`).toBeTruthy();
      if (text) expect(f.message).toBe(text);
      expect(r.body.message).toMatch(/^Ops! Verifique os erros/);
    }
    const empty = await call('POST', '/chat-interno/mensagens', { kind: 'user', id: a.bruno.id, body: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'ERR_CHAT_MESSAGE_EMPTY', message: 'Digite uma mensagem ou anexe um arquivo.' });
    const self = await call('POST', '/chat-interno/mensagens', { kind: 'user', id: a.ana.id, body: 'eu' });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ error: 'ERR_CHAT_SELF', message: 'Não é possível conversar consigo mesmo.' });
    const raw = await server.request('POST', '/chat-interno/mensagens', {
      token: a.ana.token,
      body: '{"kind":',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect(await chatRowCount(server, a.tenantId)).toBe(rows);
    expect(await eventCount(server, a.tenantId)).toBe(events);
    // Without a session: 401 everywhere.
    for (const [method, url] of [
      ['GET', '/chat-interno/conversations'],
      ['GET', '/chat-interno/count/mensagens'],
      ['POST', '/chat-interno/mensagens'],
    ]) {
      expect((await server.request(method, url)).status).toBe(401);
    }
  });

  it('stops a removed team member at once and lets an added one read the history', async () => {
    const t = await chatTenant(server);
    const team = await createTeam(server, t, [t.ana, t.bruno]);
    await send(server, t.ana, 'team', team, 'antes');
    await setTeamMembers(server, t, team, [t.ana, t.carla]);
    expect((await history(t.carla, 'team', team)).messages.map((m) => m.body)).toEqual(['antes']);
    const removed = await server.request('GET', `/chat-interno/mensagens/${team}?kind=team`, { token: t.bruno.token });
    expect(removed.status).toBe(404);
    expect(await conversation(t.bruno, 'team', team)).toBeUndefined();
    expect(await conversation(t.carla, 'team', team)).toMatchObject({ name: expect.any(String), members: 2, unread: 1 });
    // A deactivated team is no room.
    await server.request('PUT', `/teams/${team}`, { token: t.admin.token, body: { active: false } });
    expect((await server.request('GET', `/chat-interno/mensagens/${team}?kind=team`, { token: t.ana.token })).status).toBe(404);
  });
});
