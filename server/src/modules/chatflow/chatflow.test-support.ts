import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlowDefinitionSchema, type FlowDefinition } from '@shared/schemas/chatflow';
import type { Clock } from '../../core/clock';
import type { StartOptions } from '../../server';
import { FakeGraphApi, deliverWebhook, inboundPayload } from '../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { createWabaChannel, isolatedDatabase, sentTo, waitFor, type IsolatedDatabase, type LoggedUser } from '../messages/messages.test-support';

/** Test support for the chatflow suites (not a test file itself). */

export const APP_SECRET = 'app-secret-0123456789';

/** Real time plus an offset the test moves (inactivity without sleeping; sends still go out). */
export function offsetClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms) => void (offset += ms) };
}

/** A server whose waba channels talk to a fake Graph API and whose bot may call 127.0.0.1 fakes. */
export async function startChatflowServer(
  opts: StartOptions = {},
  env: Record<string, string> = {},
  shared?: { graph?: FakeGraphApi; db?: IsolatedDatabase },
): Promise<{ server: TestServer; graph: FakeGraphApi; db: IsolatedDatabase }> {
  const graph = shared?.graph ?? (await new FakeGraphApi().start());
  const db = shared?.db ?? (await isolatedDatabase());
  const server = await startTestServer(
    {
      WABA_GRAPH_BASE_URL: graph.url,
      CHATFLOW_HTTP_ALLOW_HOSTS: '127.0.0.1',
      ...(db.url ? { DATABASE_URL: db.url } : {}),
      ...env,
    },
    opts,
  );
  return { server, graph, db };
}

export interface FlowWorld {
  tenant: { id: number; name: string };
  users: Record<'admin' | 'super' | 'user', LoggedUser>;
  channel: number;
}

export async function flowWorld(server: TestServer, graph: FakeGraphApi): Promise<FlowWorld> {
  const { tenant, users } = await server.createTenantWithUsers();
  const channel = await createWabaChannel(server, graph, users.admin.token);
  return { tenant, users, channel };
}

/** A flow row (definition parsed with the shared schema, so defaults apply). */
export async function insertFlow(
  server: TestServer,
  tenantId: number,
  flow: Record<string, unknown>,
  fields: { active?: boolean; name?: string; testNumber?: string } = {},
): Promise<{ id: number; definition: FlowDefinition }> {
  const definition = FlowDefinitionSchema.parse(flow);
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO chat_flows ("tenantId", name, active, "testNumber", flow) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [tenantId, fields.name ?? `Fluxo ${Math.random().toString(16).slice(2, 8)}`, fields.active ?? true, fields.testNumber ?? '', JSON.stringify(definition)],
  );
  return { id: row.id, definition };
}

export async function useFlowOnChannel(server: TestServer, channelId: number, flowId: number | null): Promise<void> {
  await server.deps.dataSource.query(`UPDATE channels SET "chatFlowId" = $2 WHERE id = $1`, [channelId, flowId]);
}

let numberSeq = 0;
export const newNumber = (): string => `5521${String(900000000 + ((Date.now() + numberSeq++ * 7919) % 99999999)).padStart(9, '0')}`;

/** A customer's text through the real webhook (signed, as Meta sends it). */
export async function say(server: TestServer, graph: FakeGraphApi, channel: number, from: string, text: string, name = 'Maria Souza'): Promise<void> {
  const res = await deliverWebhook(
    `${server.url}/webhooks/waba/${channel}`,
    inboundPayload(graph.phoneNumberId, [{ from, name, message: { type: 'text', text: { body: text } } }]),
    APP_SECRET,
  );
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
  await server.deps.channels.inbound.idle();
}

/** Texts the fake received for a number, in order. */
export const textsTo = (graph: FakeGraphApi, to: string): string[] =>
  sentTo(graph, to).map((m) => (m.type === 'text' ? m.text.body : `[${m.type}]`));

export async function waitTexts(graph: FakeGraphApi, to: string, count: number, what = 'bot messages'): Promise<string[]> {
  await waitFor(() => textsTo(graph, to).length >= count, `${what} (${count}; got ${JSON.stringify(textsTo(graph, to))})`);
  return textsTo(graph, to);
}

export async function ticketOf(server: TestServer, tenantId: number, number: string): Promise<any> {
  const [row] = await server.deps.dataSource.query(
    `SELECT t.* FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE t."tenantId" = $1 AND c.number = $2 ORDER BY t.id DESC LIMIT 1`,
    [tenantId, number],
  );
  return row;
}

export async function botState(server: TestServer, ticketId: number): Promise<any> {
  const [row] = await server.deps.dataSource.query(`SELECT * FROM ticket_bot_states WHERE "ticketId" = $1`, [ticketId]);
  return row ?? null;
}

/** A local HTTP endpoint answering with `handler` (webhook targets, media files, an OpenAI-compatible API). */
export async function localEndpoint(
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void,
): Promise<{ url: string; requests: { path: string; body: string; headers: IncomingMessage['headers'] }[]; close(): Promise<void> }> {
  const requests: { path: string; body: string; headers: IncomingMessage['headers'] }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ path: req.url ?? '/', body, headers: req.headers });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
