import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ChatKind, ChatMessageDto } from '@shared/schemas/internal-chat';
import type { TestServer, TestUser } from '../../../../tests/helpers/test-server';

/** Test support for the internal-chat suites. */

export type ChatUser = TestUser & { token: string; name: string };

export interface ChatTenant {
  tenantId: number;
  admin: ChatUser;
  /** Agents (profile user) with distinct names, for mentions. */
  ana: ChatUser;
  bruno: ChatUser;
  carla: ChatUser;
}

const unique = () => randomBytes(3).toString('hex');

/** A tenant (made through the product) with its admin and three agents named Ana Paula, Bruno and Carla, logged in. */
export async function chatTenant(server: TestServer): Promise<ChatTenant> {
  const { tenant, admin } = await server.createTenantThroughApi();
  const agent = async (name: string): Promise<ChatUser> => {
    const u = await server.createUser(tenant.id, {
      profile: 'user',
      name,
      email: `${name.split(' ')[0].toLowerCase()}-${unique()}@test.example.com`,
    });
    return { ...u, name, token: (await server.login(u)).token };
  };
  return {
    tenantId: tenant.id,
    admin: { ...admin, name: 'User admin' },
    ana: await agent('Ana Paula'),
    bruno: await agent('Bruno'),
    carla: await agent('Carla'),
  };
}

/** A team of the tenant with these members (POST /teams as the admin). */
export async function createTeam(
  server: TestServer,
  t: ChatTenant,
  members: ChatUser[],
  name = `Equipe ${unique()}`,
): Promise<number> {
  const res = await server.request('POST', '/teams', { token: t.admin.token, body: { name, users: members.map((m) => m.id) } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

export async function setTeamMembers(server: TestServer, t: ChatTenant, teamId: number, members: ChatUser[]): Promise<void> {
  const res = await server.request('PUT', `/teams/${teamId}`, {
    token: t.admin.token,
    body: { users: members.map((m) => m.id) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** POST /chat-interno/mensagens, expecting 201. */
export async function send(
  server: TestServer,
  from: ChatUser,
  kind: ChatKind,
  id: number,
  body: string,
  extra: Record<string, unknown> = {},
): Promise<ChatMessageDto> {
  const res = await server.request('POST', '/chat-interno/mensagens', { token: from.token, body: { kind, id, body, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function chatRowCount(server: TestServer, tenantId: number): Promise<number> {
  const [row] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM chat_messages WHERE "tenantId" = $1`, [
    tenantId,
  ]);
  return row.n;
}

/** A ticket of the tenant (a contact and an open ticket written directly). */
export async function createTicket(server: TestServer, tenantId: number): Promise<number> {
  const ds = server.deps.dataSource;
  const [contact] = await ds.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Cliente', $2) RETURNING id`, [
    tenantId,
    `55119${Math.floor(Math.random() * 1e8)
      .toString()
      .padStart(8, '0')}`,
  ]);
  const [ticket] = await ds.query(`INSERT INTO tickets ("tenantId", "contactId", status) VALUES ($1, $2, 'open') RETURNING id`, [
    tenantId,
    contact.id,
  ]);
  return ticket.id;
}
