import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { CHAT_SOCKET_EVENTS } from '@shared/schemas/internal-chat';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { ABSENCE_WAIT_MS, connectAs, sleep, waitFor, type RecordingSocket } from '../../realtime/realtime.test-support';
import { chatTenant, createTeam, send, setTeamMembers, type ChatUser } from './internal-chat.test-support';
import { TYPING_RELAY_MIN_INTERVAL_MS } from './internal-chat.socket';

/**
 * The internal chat's realtime: chat events reach the users of the conversation only (both users;
 * the team's CURRENT members), never another tenant's user nor a non-member, live and in /sync;
 * the typing relay goes to the other member(s) only.
 */

let server: TestServer;
const open: RecordingSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function socketOf(user: ChatUser): Promise<RecordingSocket> {
  const s = await connectAs(server.url, user.token);
  open.push(s);
  return s;
}

const named = (s: RecordingSocket, name: string) => s.received.filter(([n]) => n === name).map(([, p]) => p as any);
const envelopesOf = (s: RecordingSocket, name: string) =>
  s.envelopes.filter((e) => e.name === name) as { name: string; payload: any }[];

describe('chat events reach the conversation users only', () => {
  it('delivers a one-to-one message, its edit and the read receipt to both users, never to a colleague or another tenant', async () => {
    const t = await chatTenant(server);
    const other = await chatTenant(server);
    const [ana, bruno, carla, stranger] = [
      await socketOf(t.ana),
      await socketOf(t.bruno),
      await socketOf(t.carla),
      await socketOf(other.ana),
    ];
    const m = await send(server, t.ana, 'user', t.bruno.id, 'só para o Bruno');
    await waitFor(() => envelopesOf(bruno, SOCKET_EVENTS.privateMessage).length === 1, 'the message on Bruno');
    await waitFor(() => envelopesOf(ana, SOCKET_EVENTS.privateMessage).length === 1, "the message on Ana's other tabs");
    expect(envelopesOf(bruno, SOCKET_EVENTS.privateMessage)[0].payload).toEqual({ message: m });
    expect(named(bruno, `${t.tenantId}:${SOCKET_EVENTS.privateMessage}`)).toEqual([{ message: m }]);

    await server.request('PUT', `/chat-interno/mensagens/${m.id}/edit`, { token: t.ana.token, body: { body: 'corrigido' } });
    await server.request('PUT', `/chat-interno/mensagens/${t.ana.id}`, { token: t.bruno.token, body: { kind: 'user' } });
    await waitFor(() => envelopesOf(bruno, CHAT_SOCKET_EVENTS.messageUpdate).length === 1, 'the edit on Bruno');
    await waitFor(() => envelopesOf(ana, CHAT_SOCKET_EVENTS.read).length === 1, 'the receipt on Ana');
    expect(envelopesOf(ana, CHAT_SOCKET_EVENTS.read)[0].payload).toEqual({
      kind: 'user',
      id: t.bruno.id,
      userId: t.bruno.id,
      lastReadId: m.id,
    });
    await waitFor(() => envelopesOf(bruno, CHAT_SOCKET_EVENTS.read).length === 1, 'the receipt on Bruno');
    expect(envelopesOf(bruno, CHAT_SOCKET_EVENTS.read)[0].payload).toEqual({
      kind: 'user',
      id: t.ana.id,
      userId: t.bruno.id,
      lastReadId: m.id,
    });

    await sleep(ABSENCE_WAIT_MS);
    expect(carla.envelopes).toEqual([]);
    expect(stranger.envelopes).toEqual([]);
    expect(carla.received.filter(([n]) => n.includes('chat'))).toEqual([]);
    expect(stranger.received).toEqual([]);
  });

  it("delivers a team message to the team's current members only; membership changes apply at once", async () => {
    const t = await chatTenant(server);
    const other = await chatTenant(server);
    const team = await createTeam(server, t, [t.ana, t.bruno]);
    const [ana, bruno, carla, admin, stranger] = [
      await socketOf(t.ana),
      await socketOf(t.bruno),
      await socketOf(t.carla),
      await socketOf(t.admin),
      await socketOf(other.ana),
    ];
    const first = await send(server, t.ana, 'team', team, 'primeira');
    await waitFor(() => envelopesOf(bruno, SOCKET_EVENTS.privateMessage).length === 1, 'the first message on Bruno');
    await waitFor(() => envelopesOf(ana, SOCKET_EVENTS.privateMessage).length === 1, 'the first message on Ana');
    expect(envelopesOf(bruno, SOCKET_EVENTS.privateMessage)[0].payload.message.id).toBe(first.id);

    // Bruno leaves, Carla joins: the next message is hers, not his.
    await setTeamMembers(server, t, team, [t.ana, t.carla]);
    const second = await send(server, t.ana, 'team', team, 'segunda');
    await waitFor(() => envelopesOf(carla, SOCKET_EVENTS.privateMessage).length === 1, 'the second message on Carla');
    expect(envelopesOf(carla, SOCKET_EVENTS.privateMessage)[0].payload.message.id).toBe(second.id);
    await waitFor(() => envelopesOf(ana, SOCKET_EVENTS.privateMessage).length === 2, 'the second message on Ana');
    await sleep(ABSENCE_WAIT_MS);
    expect(envelopesOf(bruno, SOCKET_EVENTS.privateMessage).map((e) => (e.payload as any).message.id)).toEqual([first.id]);
    // The admin is no member: nothing, whatever the profile. Another tenant: nothing at all.
    expect(envelopesOf(admin, SOCKET_EVENTS.privateMessage)).toEqual([]);
    expect(stranger.received).toEqual([]);
    // A non-member cannot send into the room (HTTP 404, no event).
    const refused = await server.request('POST', '/chat-interno/mensagens', {
      token: t.bruno.token,
      body: { kind: 'team', id: team, body: 'ainda aqui?' },
    });
    expect(refused.status).toBe(404);
  });

  it('replays chat events through /sync to the conversation users only', async () => {
    const t = await chatTenant(server);
    const team = await createTeam(server, t, [t.ana, t.bruno]);
    const seqOf = async (u: ChatUser) =>
      (await server.request('GET', '/sync?since=0', { token: u.token })).body.lastSeq as number;
    const since = await seqOf(t.ana);
    const m = await send(server, t.ana, 'team', team, 'para quem voltar');
    const d = await send(server, t.ana, 'user', t.bruno.id, 'direta');
    const sync = async (u: ChatUser) =>
      ((await server.request('GET', `/sync?since=${since}`, { token: u.token })).body.events as any[])
        .filter((e) => e.name === SOCKET_EVENTS.privateMessage)
        .map((e) => e.payload.message.id);
    expect(await sync(t.bruno)).toEqual([m.id, d.id]);
    expect(await sync(t.ana)).toEqual([m.id, d.id]);
    expect(await sync(t.carla)).toEqual([]);
    expect(await sync(t.admin)).toEqual([]);
  });

  it('sends the mention notification to the mentioned user only', async () => {
    const t = await chatTenant(server);
    const team = await createTeam(server, t, [t.ana, t.bruno, t.carla]);
    const [bruno, carla] = [await socketOf(t.bruno), await socketOf(t.carla)];
    await send(server, t.ana, 'team', team, 'oi @Bruno');
    await waitFor(() => envelopesOf(bruno, SOCKET_EVENTS.notificationCreate).length === 1, 'the mention on Bruno');
    expect(envelopesOf(bruno, SOCKET_EVENTS.notificationCreate)[0].payload).toMatchObject({ notification: { kind: 'mention' } });
    await waitFor(() => envelopesOf(carla, SOCKET_EVENTS.privateMessage).length === 1, 'the message on Carla');
    await sleep(ABSENCE_WAIT_MS);
    expect(envelopesOf(carla, SOCKET_EVENTS.notificationCreate)).toEqual([]);
  });
});

describe('typing relay', () => {
  it('relays chat:typing to the other user of a one-to-one only, naming the conversation as they do', async () => {
    const t = await chatTenant(server);
    const other = await chatTenant(server);
    const [ana, bruno, carla, stranger] = [
      await socketOf(t.ana),
      await socketOf(t.bruno),
      await socketOf(t.carla),
      await socketOf(other.ana),
    ];
    ana.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'user', id: t.bruno.id });
    await waitFor(() => named(bruno, CHAT_SOCKET_EVENTS.typing).length === 1, 'typing on Bruno');
    expect(named(bruno, CHAT_SOCKET_EVENTS.typing)[0]).toEqual({
      kind: 'user',
      id: t.ana.id,
      userId: t.ana.id,
      userName: 'Ana Paula',
    });
    await waitFor(
      () => named(bruno, `${t.tenantId}:${CHAT_SOCKET_EVENTS.typing}`).length === 1,
      'the tenant-named typing on Bruno',
    );
    // Within the throttle a second one is not relayed; after it, it is (also under the tenant-prefixed name).
    ana.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'user', id: t.bruno.id });
    await sleep(TYPING_RELAY_MIN_INTERVAL_MS);
    ana.socket.emit(`${t.tenantId}:${CHAT_SOCKET_EVENTS.typing}`, { kind: 'user', id: t.bruno.id });
    await waitFor(() => named(bruno, CHAT_SOCKET_EVENTS.typing).length === 2, 'a later typing on Bruno');
    // To another tenant's user, malformed, or to oneself: nothing.
    ana.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'user', id: other.ana.id });
    stranger.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'user', id: t.ana.id });
    ana.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'sala', id: 'x' });
    ana.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'user', id: t.ana.id });
    await sleep(ABSENCE_WAIT_MS);
    expect(named(bruno, CHAT_SOCKET_EVENTS.typing)).toHaveLength(2);
    expect(named(ana, CHAT_SOCKET_EVENTS.typing)).toEqual([]);
    expect(carla.received).toEqual([]);
    expect(stranger.received).toEqual([]);
    // Typing is not a domain event: nothing recorded.
    const [{ n }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS n FROM domain_events WHERE "tenantId" = $1 AND name = 'chat:typing'`,
      [t.tenantId],
    );
    expect(n).toBe(0);
  });

  it("relays a team's typing to its other current members; a non-member's typing goes nowhere", async () => {
    const t = await chatTenant(server);
    const team = await createTeam(server, t, [t.ana, t.bruno]);
    const [ana, bruno, carla, admin] = [
      await socketOf(t.ana),
      await socketOf(t.bruno),
      await socketOf(t.carla),
      await socketOf(t.admin),
    ];
    bruno.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'team', id: team });
    await waitFor(() => named(ana, CHAT_SOCKET_EVENTS.typing).length === 1, 'typing on Ana');
    expect(named(ana, CHAT_SOCKET_EVENTS.typing)[0]).toEqual({ kind: 'team', id: team, userId: t.bruno.id, userName: 'Bruno' });
    carla.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'team', id: team });
    await setTeamMembers(server, t, team, [t.ana, t.carla]);
    // Bruno left: his typing relays nothing; Carla's (now a member) reaches Ana, never Bruno.
    await sleep(TYPING_RELAY_MIN_INTERVAL_MS);
    bruno.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'team', id: team });
    carla.socket.emit(CHAT_SOCKET_EVENTS.typing, { kind: 'team', id: team });
    await waitFor(() => named(ana, CHAT_SOCKET_EVENTS.typing).length === 2, "Carla's typing on Ana");
    expect(named(ana, CHAT_SOCKET_EVENTS.typing)[1]).toMatchObject({ userId: t.carla.id });
    await sleep(ABSENCE_WAIT_MS);
    expect(named(ana, CHAT_SOCKET_EVENTS.typing)).toHaveLength(2);
    expect(named(bruno, CHAT_SOCKET_EVENTS.typing)).toEqual([]);
    expect(named(admin, CHAT_SOCKET_EVENTS.typing)).toEqual([]);
  });
});
