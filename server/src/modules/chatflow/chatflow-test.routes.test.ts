import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { createContact, createTicket } from '../messages/messages.test-support';
import { botState, flowWorld, insertFlow, newNumber, startChatflowServer, textsTo, waitTexts, type FlowWorld } from './chatflow.test-support';

/**
 * POST /chat-flow/:chatFlowId/test and the transfer to the chatbot (PUT /ticketsChatBot/{id}):
 * both start the flow for real (the start step's messages reach the fake Graph API); each is
 * refused for another tenant's flow, a wrong role and a malformed body.
 */

let server: TestServer;
let graph: FakeGraphApi;
let w: FlowWorld;
let flowId: number;
const testNumber = newNumber();

const definition = {
  startStepId: 'a',
  settings: { welcomeMessage: 'Teste do fluxo' },
  steps: [
    {
      id: 'a',
      name: 'A',
      interactions: [{ id: 'i', type: 'flowBuilder', text: 'Escolha', options: ['Um'] }],
      conditions: [{ id: 'c', type: 'option', values: ['1'], target: { type: 'close' } }],
    },
  ],
};

beforeAll(async () => {
  ({ server, graph } = await startChatflowServer());
  w = await flowWorld(server, graph);
  await server.deps.dataSource.query(`UPDATE channels SET "isDefault" = true WHERE id = $1`, [w.channel]);
  flowId = (await insertFlow(server, w.tenant.id, definition, { active: false, testNumber })).id;
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const post = (id: number | string, token: string | undefined, body?: unknown) =>
  server.request('POST', `/chat-flow/${id}/test`, { token, body: body ?? {} });

describe('POST /chat-flow/:chatFlowId/test', () => {
  it('runs the flow (even inactive) for its test number on the default channel', async () => {
    const res = await post(flowId, w.users.super.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ channelId: w.channel, started: true });
    expect(await waitTexts(graph, testNumber, 2)).toEqual(['Teste do fluxo', 'Escolha\n\n1 - Um']);
    expect(await botState(server, res.body.ticketId)).toMatchObject({ chatFlowId: flowId, stepId: 'a' });
    const [ticket] = await server.deps.dataSource.query(`SELECT "botActive", "chatFlowId", status FROM tickets WHERE id = $1`, [res.body.ticketId]);
    expect(ticket).toEqual({ botActive: true, chatFlowId: flowId, status: 'pending' });

    // Another number given in the body; a second run restarts the flow for the same ticket.
    const other = newNumber();
    const again = await post(flowId, w.users.admin.token, { number: `+${other}` });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await waitTexts(graph, other, 2)).toEqual(['Teste do fluxo', 'Escolha\n\n1 - Um']);
  });

  it('refuses another tenant\'s flow, a wrong role, a malformed body and a missing test number', async () => {
    const b = await server.createTenantWithUsers();
    const foreign = await insertFlow(server, b.tenant.id, definition, { testNumber });
    const before = textsTo(graph, testNumber).length;
    const expectError = (res: { status: number; body: any }, status: number, code: string) => {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toBe(code);
    };
    expectError(await post(foreign.id, w.users.admin.token), 404, 'ERR_NO_CHATFLOW_FOUND');
    expectError(await post(flowId, b.users.admin.token), 404, 'ERR_NO_CHATFLOW_FOUND');
    expectError(await post(999_999, w.users.admin.token), 404, 'ERR_NO_CHATFLOW_FOUND');
    expectError(await post(flowId, w.users.user.token), 403, 'ERR_NO_PERMISSION');
    expectError(await post(flowId, undefined), 401, 'ERR_INVALID_TOKEN');
    const bad = await post(flowId, w.users.admin.token, { number: 'abc' });
    expectError(bad, 400, 'ERR_VALIDATION');
    expect(JSON.stringify(bad.body)).toContain('number');
    expectError(await post(flowId, w.users.admin.token, { number: '5511999999999', extra: 1 }), 400, 'ERR_VALIDATION');
    expectError(await post('x', w.users.admin.token), 400, 'ERR_VALIDATION');
    const noNumber = await insertFlow(server, w.tenant.id, definition);
    expectError(await post(noNumber.id, w.users.admin.token), 400, 'ERR_CHATFLOW_NO_TEST_NUMBER');
    await new Promise((r) => setTimeout(r, 150));
    expect(textsTo(graph, testNumber)).toHaveLength(before);
  });
});

describe('PUT /ticketsChatBot/{id} starts the flow', () => {
  it('an agent hands the ticket to an active flow: the bot greets and waits at the start step', async () => {
    const active = await insertFlow(server, w.tenant.id, definition, { active: true });
    const contact = await createContact(server, w.tenant.id, { name: 'João Dias' });
    const ticket = await createTicket(server, { tenantId: w.tenant.id, contactId: contact.id, channelId: w.channel, userId: w.users.user.id });
    const res = await server.request('PUT', `/ticketsChatBot/${ticket}`, { token: w.users.user.token, body: { chatFlowId: active.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ botActive: true, userId: null, chatFlowId: active.id });
    expect(await waitTexts(graph, contact.number, 2)).toEqual(['Teste do fluxo', 'Escolha\n\n1 - Um']);
    expect(await botState(server, ticket)).toMatchObject({ stepId: 'a', variables: {} });
  });
});
