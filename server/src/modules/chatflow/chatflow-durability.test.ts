import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeGraphApi, deliverWebhook, inboundPayload } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { isolatedDatabase, waitFor } from '../messages/messages.test-support';
import {
  APP_SECRET,
  botState,
  flowWorld,
  insertFlow,
  newNumber,
  say,
  startChatflowServer,
  textsTo,
  ticketOf,
  useFlowOnChannel,
  waitTexts,
} from './chatflow.test-support';

/**
 * Issue #14: the bot state is a row, so a restart resumes every conversation where it was (a
 * new server over the same database, the first one gone with its timers and jobs); balanced
 * distribution under 50 concurrent arrivals gives an even spread.
 */

const servers: TestServer[] = [];
const graphs: FakeGraphApi[] = [];
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
  for (const g of graphs) await g.stop();
});

const step = (id: string, interactions: unknown[], conditions: unknown[] = []) => ({
  id,
  name: id,
  interactions: interactions.map((i, n) => ({ id: `${id}-i${n}`, ...(i as object) })),
  conditions: conditions.map((c, n) => ({ id: `${id}-c${n}`, ...(c as object) })),
});

describe('restart in the middle of a flow', () => {
  it('a new server on the same database resumes a waiting step and a pending delay', async () => {
    const graph = await new FakeGraphApi().start();
    graphs.push(graph);
    const db = await isolatedDatabase();
    const env: Record<string, string> = db.url ? {} : { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atende-chatflow-')) };
    const opts = db.url ? {} : { inMemoryDatabase: false };
    const { server: first } = await startChatflowServer(opts, env, { graph, db });
    const w = await flowWorld(first, graph);
    const flow = await insertFlow(first, w.tenant.id, {
      startStepId: 'menu',
      steps: [
        step('menu', [{ type: 'flowBuilder', text: 'Menu', options: ['Pedido', 'Espera'] }], [
          { type: 'option', values: ['1'], target: { type: 'step', stepId: 'pedido' } },
          { type: 'option', values: ['2'], target: { type: 'step', stepId: 'espera' } },
        ]),
        step('pedido', [{ type: 'message', text: 'Seu pedido, {{firstName}}' }], [{ type: 'any', target: { type: 'close' } }]),
        step('espera', [{ type: 'message', text: 'Aguarde' }, { type: 'delay', seconds: 2 }, { type: 'message', text: 'Pronto' }]),
      ],
    });
    await useFlowOnChannel(first, w.channel, flow.id);
    const waiting = newNumber();
    const delayed = newNumber();
    await say(first, graph, w.channel, waiting, 'oi');
    await say(first, graph, w.channel, delayed, 'oi');
    await waitTexts(graph, waiting, 1);
    await waitTexts(graph, delayed, 1);
    await say(first, graph, w.channel, delayed, '2');
    expect(await waitTexts(graph, delayed, 2)).toEqual(['Menu\n\n1 - Pedido\n2 - Espera', 'Aguarde']);
    const delayedTicket = await ticketOf(first, w.tenant.id, delayed);
    expect((await botState(first, delayedTicket.id)).variables).toHaveProperty('$resume');
    await first.close();

    const { server: second } = await startChatflowServer(opts, env, { graph, db });
    servers.push(second);
    // The delay's job died with the first server: the sweep (run at start, then every 5 s) sends the rest.
    expect(await waitTexts(graph, delayed, 3)).toEqual(['Menu\n\n1 - Pedido\n2 - Espera', 'Aguarde', 'Pronto']);
    await say(second, graph, w.channel, waiting, '1');
    expect(await waitTexts(graph, waiting, 2)).toEqual(['Menu\n\n1 - Pedido\n2 - Espera', 'Seu pedido, Maria']);
    const ticket = await ticketOf(second, w.tenant.id, waiting);
    expect(await botState(second, ticket.id)).toMatchObject({ stepId: 'pedido' });
    await new Promise((r) => setTimeout(r, 200));
    expect(textsTo(graph, delayed)).toHaveLength(3);
  }, 60_000);
});

describe('balanced self-distribution', () => {
  it('50 concurrent arrivals spread evenly over the queue\'s agents (max - min <= 1)', async () => {
    const { server, graph } = await startChatflowServer();
    servers.push(server);
    graphs.push(graph);
    const w = await flowWorld(server, graph);
    const [{ id: queue }] = await server.deps.dataSource.query(
      `INSERT INTO queues ("tenantId", name, color) VALUES ($1, 'Vendas', '#00ff00') RETURNING id`,
      [w.tenant.id],
    );
    const agents: number[] = [];
    for (let i = 0; i < 4; i++) {
      const u = await server.createUser(w.tenant.id, { profile: 'user' });
      await server.deps.dataSource.query(`UPDATE users SET queues = $2 WHERE id = $1`, [u.id, JSON.stringify([queue])]);
      agents.push(u.id);
    }
    // An agent outside the queue never gets one.
    const outsider = await server.createUser(w.tenant.id, { profile: 'user' });
    const flow = await insertFlow(server, w.tenant.id, {
      startStepId: 'a',
      settings: { routeOnFirstInteraction: { type: 'queue', queueId: queue }, selfDistribution: 'balanced' },
      steps: [step('a', [{ type: 'message', text: 'nunca' }])],
    });
    await useFlowOnChannel(server, w.channel, flow.id);
    const numbers = Array.from({ length: 50 }, () => newNumber());
    const hooks = await Promise.all(
      numbers.map((from) =>
        deliverWebhook(
          `${server.url}/webhooks/waba/${w.channel}`,
          inboundPayload(graph.phoneNumberId, [{ from, message: { type: 'text', text: { body: 'oi' } } }]),
          APP_SECRET,
        ),
      ),
    );
    expect(hooks.every((h) => h.status === 200)).toBe(true);
    await server.deps.channels.inbound.idle();
    await waitFor(async () => {
      const [{ n }] = await server.deps.dataSource.query(
        `SELECT count(*)::int AS n FROM tickets WHERE "tenantId" = $1 AND "userId" IS NOT NULL`,
        [w.tenant.id],
      );
      return n === 50;
    }, '50 tickets assigned');
    const rows = (await server.deps.dataSource.query(
      `SELECT "userId", count(*)::int AS n FROM tickets WHERE "tenantId" = $1 AND status = 'open' GROUP BY "userId"`,
      [w.tenant.id],
    )) as { userId: number; n: number }[];
    const counts = agents.map((id) => rows.find((r) => r.userId === id)?.n ?? 0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(50);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(rows.find((r) => r.userId === outsider.id)).toBeUndefined();
    expect(textsTo(graph, numbers[0])).toEqual([]);
  }, 60_000);
});
