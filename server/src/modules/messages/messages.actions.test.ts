import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { AdapterContext } from '../../channels/adapter-context';
import type {
  ChannelAdapter,
  InteractiveButton,
  OutboundMedia,
  OutboundTarget,
  SendResult,
  SessionStatus,
} from '../../channels/channel-adapter';
import { lastEvent } from '../../../../tests/helpers/domain-events';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createAgent,
  createContact,
  createMessagingTenant,
  createTicket,
  insertMessages,
  messageRow,
  sentTo,
  startMessagingServer,
  waitForMessage,
  type MessagingTenant,
} from './messages.test-support';

/**
 * A provider that can edit and delete (the official API cannot), registered through the channel
 * registry's factory mechanism for the `baileys` type: it records every call.
 */
class RecordingAdapter implements ChannelAdapter {
  readonly type = 'baileys' as const;
  static calls: { op: string; to: string; args: unknown[] }[] = [];
  constructor(private readonly ctx: AdapterContext) {}
  status(): SessionStatus {
    return this.ctx.record.status;
  }
  async connect() {}
  async disconnect() {}
  private record(op: string, target: OutboundTarget, ...args: unknown[]): SendResult {
    RecordingAdapter.calls.push({ op, to: target.to, args });
    return {
      providerMessageId: `REC-${RecordingAdapter.calls.length}-${Math.random().toString(36).slice(2)}`,
      timestamp: Math.floor(Date.now() / 1000),
    };
  }
  async sendText(target: OutboundTarget, text: string) {
    return this.record('text', target, text);
  }
  async sendMedia(target: OutboundTarget, media: OutboundMedia) {
    return this.record('media', target, media.fileName);
  }
  async sendButtons(target: OutboundTarget, body: string, buttons: InteractiveButton[]) {
    return this.record('buttons', target, body, buttons);
  }
  async sendTemplate(target: OutboundTarget) {
    return this.record('template', target);
  }
  async sendReaction(target: OutboundTarget, id: string, emoji: string) {
    return this.record('reaction', target, id, emoji);
  }
  async editMessage(target: OutboundTarget, id: string, text: string) {
    return this.record('edit', target, id, text);
  }
  async deleteMessage(target: OutboundTarget, id: string) {
    this.record('delete', target, id);
  }
}

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
  server.deps.channels.register('baileys', (ctx) => new RecordingAdapter(ctx));
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

/** A tenant whose ticket is on a connected `baileys` channel served by RecordingAdapter. */
async function recordingTenant(): Promise<MessagingTenant> {
  const t = await createMessagingTenant(server, graph, { channel: false });
  const [channel] = await server.deps.dataSource.query(
    `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'QR', 'baileys', 'CONNECTED') RETURNING id`,
    [t.tenant.id],
  );
  await server.deps.dataSource.query(`UPDATE tickets SET "whatsappId" = $1 WHERE id = $2`, [channel.id, t.ticketId]);
  return { ...t, channelId: channel.id };
}

async function sendAndWait(t: MessagingTenant, body: string): Promise<any> {
  const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
}

describe('POST /messages/editMessage', () => {
  it('edits a sent text through a channel that can, keeping the history', async () => {
    const t = await recordingTenant();
    const row = await sendAndWait(t, 'Entrega amanhã');
    const res = await server.request('POST', '/messages/editMessage', {
      token: t.users.user.token,
      body: { messageId: Number(row.id), body: 'Entrega hoje' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ body: 'Entrega hoje', isEdited: true, flags: expect.objectContaining({ edited: true }) });
    expect(RecordingAdapter.calls.at(-1)).toMatchObject({
      op: 'edit',
      to: t.contact.number,
      args: [row.messageId, 'Entrega hoje'],
    });
    const stored = await messageRow(server, Number(row.id));
    expect(stored.dataJson.editHistory).toEqual([expect.objectContaining({ body: 'Entrega amanhã' })]);
    const event = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.messageUpdate);
    expect(event?.payload.message).toMatchObject({ id: Number(row.id), body: 'Entrega hoje' });
  });

  it('answers the official API’s refusal and changes nothing', async () => {
    const t = await createMessagingTenant(server, graph);
    const row = await sendAndWait(t, 'Texto original');
    const res = await server.request('POST', '/messages/editMessage', {
      token: t.users.user.token,
      body: { messageId: Number(row.id), body: 'Outro' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
    expect(res.body.message).toContain('não permite editar');
    expect((await messageRow(server, Number(row.id))).body).toBe('Texto original');
  });

  it('edits a private note in place; refuses an unsent message, another agent’s message (403), another tenant (404), bad input (400), no token (401)', async () => {
    const t = await recordingTenant();
    const note = await server.request('POST', '/messages/ghostMessage', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'nota' },
    });
    const edited = await server.request('POST', '/messages/editMessage', {
      token: t.users.user.token,
      body: { messageId: note.body.messages[0].id, body: 'nota revista' },
    });
    expect(edited.body.body).toBe('nota revista');
    await server.deps.dataSource.query(`UPDATE channels SET status = 'DISCONNECTED' WHERE id = $1`, [t.channelId]);
    const pending = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'pendente' },
    });
    const unsent = await server.request('POST', '/messages/editMessage', {
      token: t.users.user.token,
      body: { messageId: pending.body.messages[0].id, body: 'x' },
    });
    expect(unsent.status).toBe(400);
    expect(unsent.body.fields[0].path).toBe('messageId');
    // An agent of the ticket's queue sees it, but did not write the message.
    const [queue] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name) VALUES ($1, 'Q') RETURNING id`, [
      t.tenant.id,
    ]);
    await server.deps.dataSource.query(`UPDATE tickets SET "queueId" = $1 WHERE id = $2`, [queue.id, t.ticketId]);
    const colleague = await createAgent(server, t.tenant.id);
    await server.deps.dataSource.query(`UPDATE users SET queues = $1 WHERE id = $2`, [JSON.stringify([queue.id]), colleague.id]);
    const notMine = await server.request('POST', '/messages/editMessage', {
      token: colleague.token,
      body: { messageId: note.body.messages[0].id, body: 'x' },
    });
    expect(notMine.status).toBe(403);
    const other = await createMessagingTenant(server, graph);
    expect(
      (
        await server.request('POST', '/messages/editMessage', {
          token: other.users.admin.token,
          body: { messageId: note.body.messages[0].id, body: 'x' },
        })
      ).status,
    ).toBe(404);
    const bad = await server.request('POST', '/messages/editMessage', {
      token: t.users.user.token,
      body: { messageId: note.body.messages[0].id },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('body');
    expect((await server.request('POST', '/messages/editMessage', { body: { messageId: 1, body: 'x' } })).status).toBe(401);
  });
});

describe('DELETE /messages', () => {
  it('deletes a sent message for everyone through the channel and keeps the row with isDeleted', async () => {
    const t = await recordingTenant();
    const row = await sendAndWait(t, 'Mensagem errada');
    const res = await server.request('DELETE', '/messages', {
      token: t.users.user.token,
      body: { id: Number(row.id), messageId: row.messageId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ isDeleted: true, status: 'sent', flags: expect.objectContaining({ deleted: true }) });
    expect(RecordingAdapter.calls.at(-1)).toMatchObject({ op: 'delete', args: [row.messageId] });
    const event = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.messageDelete);
    expect(event?.payload).toMatchObject({ action: 'delete', message: { id: Number(row.id), isDeleted: true } });
    // Again: nothing more to do.
    expect(
      (await server.request('DELETE', '/messages', { token: t.users.user.token, body: { id: Number(row.id) } })).status,
    ).toBe(200);
  });

  it('refuses messages older than 48 hours (ERR_DELETE_WAPP_MSG) and the official API’s refusal, changing nothing', async () => {
    const t = await recordingTenant();
    const row = await sendAndWait(t, 'Antiga');
    await server.deps.dataSource.query(
      `UPDATE messages SET timestamp = extract(epoch FROM now() - interval '49 hours')::bigint WHERE id = $1`,
      [row.id],
    );
    const old = await server.request('DELETE', '/messages', { token: t.users.user.token, body: { id: Number(row.id) } });
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({ error: 'ERR_DELETE_WAPP_MSG', message: 'Não é possível apagar mensagens antigas.' });
    const waba = await createMessagingTenant(server, graph);
    const sent = await sendAndWait(waba, 'Na API oficial');
    const refused = await server.request('DELETE', '/messages', { token: waba.users.user.token, body: { id: Number(sent.id) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
    expect((await messageRow(server, Number(row.id))).isDeleted).toBe(false);
    expect((await messageRow(server, Number(sent.id))).isDeleted).toBe(false);
  });

  it('withdraws a message that has not gone out (it is never sent)', async () => {
    const t = await recordingTenant();
    await server.deps.dataSource.query(`UPDATE channels SET status = 'DISCONNECTED' WHERE id = $1`, [t.channelId]);
    const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: 'Desisti' } });
    const id = res.body.messages[0].id;
    const del = await server.request('DELETE', '/messages', { token: t.users.user.token, body: { id } });
    expect(del.body).toMatchObject({ isDeleted: true, status: 'canceled' });
    await server.deps.dataSource.query(`UPDATE channels SET status = 'CONNECTED' WHERE id = $1`, [t.channelId]);
    await server.deps.dataSource.query(`UPDATE messages SET "nextRetryAt" = now() WHERE id = $1`, [id]);
    await new Promise((r) => setTimeout(r, 200));
    expect(RecordingAdapter.calls.filter((c) => c.to === t.contact.number)).toHaveLength(0);
  });

  it('answers 404 for another tenant or a wrong provider id, 400 for a customer’s message or bad input, 401 without a token', async () => {
    const t = await recordingTenant();
    const row = await sendAndWait(t, 'Minha');
    const other = await createMessagingTenant(server, graph);
    expect(
      (await server.request('DELETE', '/messages', { token: other.users.admin.token, body: { id: Number(row.id) } })).status,
    ).toBe(404);
    expect(
      (
        await server.request('DELETE', '/messages', {
          token: t.users.user.token,
          body: { id: Number(row.id), messageId: 'wamid.OUTRO' },
        })
      ).status,
    ).toBe(404);
    const [received] = await insertMessages(server, { tenantId: t.tenant.id, ticketId: t.ticketId, contactId: t.contact.id }, [
      'do cliente',
    ]);
    const theirs = await server.request('DELETE', '/messages', { token: t.users.admin.token, body: { id: received } });
    expect(theirs.status).toBe(400);
    expect(theirs.body.fields[0].path).toBe('messageId');
    const bad = await server.request('DELETE', '/messages', { token: t.users.user.token, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('id');
    expect((await server.request('DELETE', '/messages', { body: { id: Number(row.id) } })).status).toBe(401);
  });
});

describe('POST /messages/reactionMessage', () => {
  it('sends the reaction through the channel and keeps one reaction of ours beside the customer’s', async () => {
    const t = await createMessagingTenant(server, graph);
    const [received] = await insertMessages(
      server,
      { tenantId: t.tenant.id, ticketId: t.ticketId, contactId: t.contact.id },
      ['Chegou!'],
      {
        messageId: () => `wamid.IN-${Math.random()}`,
        whatsappId: t.channelId,
      },
    );
    await server.deps.dataSource.query(
      `UPDATE messages SET reactions = '[{"emoji":"🎉","fromMe":false,"contactId":1}]' WHERE id = $1`,
      [received],
    );
    const first = await server.request('POST', '/messages/reactionMessage', {
      token: t.users.user.token,
      body: { messageId: received, emoji: '👍' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await server.request('POST', '/messages/reactionMessage', {
      token: t.users.user.token,
      body: { messageId: received, emoji: '❤️' },
    });
    expect(second.body.reactions).toEqual([
      { emoji: '🎉', fromMe: false, contactId: 1 },
      expect.objectContaining({ emoji: '❤️', fromMe: true, userId: t.users.user.id }),
    ]);
    const out = sentTo(graph, t.contact.number).filter((m) => m.type === 'reaction');
    expect(out.map((m) => m.reaction.emoji)).toEqual(['👍', '❤️']);
    const removed = await server.request('POST', '/messages/reactionMessage', {
      token: t.users.user.token,
      body: { messageId: received, emoji: '' },
    });
    expect(removed.body.reactions).toEqual([{ emoji: '🎉', fromMe: false, contactId: 1 }]);
  });

  it('answers 400 for a private note or bad input, 404 for another tenant, 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    const note = await server.request('POST', '/messages/ghostMessage', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'nota' },
    });
    const onNote = await server.request('POST', '/messages/reactionMessage', {
      token: t.users.user.token,
      body: { messageId: note.body.messages[0].id, emoji: '👍' },
    });
    expect(onNote.status).toBe(400);
    const bad = await server.request('POST', '/messages/reactionMessage', {
      token: t.users.user.token,
      body: { messageId: note.body.messages[0].id },
    });
    expect(bad.body.fields[0].path).toBe('emoji');
    const other = await createMessagingTenant(server, graph);
    expect(
      (
        await server.request('POST', '/messages/reactionMessage', {
          token: other.users.admin.token,
          body: { messageId: note.body.messages[0].id, emoji: '👍' },
        })
      ).status,
    ).toBe(404);
    expect((await server.request('POST', '/messages/reactionMessage', { body: { messageId: 1, emoji: '👍' } })).status).toBe(401);
  });
});

describe('group features: mentionMessage, mentionAllMessage, listParticipants', () => {
  const routes = [
    ['/messages/mentionMessage', { body: '@todos reunião', mentions: ['5511999990000'] }],
    ['/messages/mentionAllMessage', { body: 'Atenção todos' }],
    ['/messages/listParticipants', {}],
  ] as const;

  it('refuses a ticket that is not a group (400), and a group on a channel without group support (ERR_CHANNEL_OPERATION_UNSUPPORTED)', async () => {
    const t = await createMessagingTenant(server, graph);
    const group = await createContact(server, t.tenant.id, {
      name: 'Grupo Vendas',
      number: `1203630${Date.now()}`,
      isGroup: true,
    });
    const groupTicket = await createTicket(server, {
      tenantId: t.tenant.id,
      contactId: group.id,
      channelId: t.channelId,
      userId: t.users.user.id,
      isGroup: true,
    });
    for (const [path, extra] of routes) {
      const single = await server.request('POST', path, { token: t.users.user.token, body: { ticketId: t.ticketId, ...extra } });
      expect(single.status, path).toBe(400);
      expect(single.body.fields[0].path).toBe('ticketId');
      const inGroup = await server.request('POST', path, {
        token: t.users.user.token,
        body: { ticketId: groupTicket, ...extra },
      });
      expect(inGroup.status, path).toBe(400);
      expect(inGroup.body.error).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
      expect(inGroup.body.message).toContain('suporte a grupos');
    }
  });

  it('answers 404 for another tenant, 400 for bad input, 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    for (const [path, extra] of routes) {
      expect(
        (await server.request('POST', path, { token: other.users.admin.token, body: { ticketId: t.ticketId, ...extra } })).status,
        path,
      ).toBe(404);
      const bad = await server.request('POST', path, { token: t.users.user.token, body: { ...extra } });
      expect(bad.status).toBe(400);
      expect(bad.body.fields.map((f: any) => f.path)).toContain('ticketId');
      expect((await server.request('POST', path, { body: { ticketId: t.ticketId, ...extra } })).status).toBe(401);
    }
  });
});

describe('POST /messages/syncOld and /messages/syncOldByUser', () => {
  it('answer that history sync is not available for the channel; 404 for another tenant’s channel; 400; 401', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    for (const path of ['/messages/syncOld', '/messages/syncOldByUser']) {
      const res = await server.request('POST', path, { token: t.users.admin.token, body: { whatsappId: t.channelId } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
      expect(res.body.message).toContain('waba');
      expect(
        (await server.request('POST', path, { token: t.users.admin.token, body: { whatsappId: other.channelId } })).body.error,
      ).toBe('ERR_NO_WAPP_FOUND');
      expect(
        (await server.request('POST', path, { token: t.users.admin.token, body: { whatsappId: 'x' } })).body.fields[0].path,
      ).toBe('whatsappId');
      expect((await server.request('POST', path, { body: {} })).status).toBe(401);
    }
  });
});
