import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@shared/profiles';
import { findSettingsConflict } from '@shared/schemas/settings';
import type { TicketListResponse } from '@shared/schemas/tickets';
import type { VisibilitySettingKey } from '@shared/settings';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import type { TicketAudienceFacts } from '../../db/entities';
import { VISIBILITY_KEYS, buildViewer, canSeeTicket } from './ticket-visibility.policy';
import { insertContact, insertTicket, setSettings, setWallets, ticketWorld, type TicketWorld } from './tickets.test-support';

/**
 * The visibility table (spec section 6): a fixed set of tickets, every profile, every setting
 * combination the settings screen allows, showAll on and off. For each, the ids the REST list
 * answers (SQL) must equal the ids the pure predicate (sockets, /sync, single loads) accepts;
 * named rows below also pin the expected ids by hand.
 */

let server: TestServer;
let world: TicketWorld;
const tickets = new Map<string, { id: number; facts: TicketAudienceFacts }>();

type Viewer = 'user' | 'super' | 'admin';

beforeAll(async () => {
  server = await startTestServer();
  world = await ticketWorld(server);
  const { users, other, queueA, queueB, tenant } = world;
  const defs: [
    string,
    {
      queue: 'A' | 'B' | null;
      status: 'open' | 'pending' | 'closed';
      user: 'user' | 'other' | 'super' | null;
      isGroup?: boolean;
      botActive?: boolean;
      wallet?: ('user' | 'other')[];
    },
  ][] = [
    ['A-pending-free', { queue: 'A', status: 'pending', user: null }],
    ['A-open-mine', { queue: 'A', status: 'open', user: 'user' }],
    ['A-open-other', { queue: 'A', status: 'open', user: 'other' }],
    ['A-open-super', { queue: 'A', status: 'open', user: 'super' }],
    ['B-pending-free', { queue: 'B', status: 'pending', user: null }],
    ['B-open-mine', { queue: 'B', status: 'open', user: 'user' }],
    ['null-pending-free', { queue: null, status: 'pending', user: null }],
    ['null-open-other', { queue: null, status: 'open', user: 'other' }],
    ['null-closed-free', { queue: null, status: 'closed', user: null }],
    ['A-bot', { queue: 'A', status: 'pending', user: null, botActive: true }],
    ['B-group', { queue: 'B', status: 'open', user: 'other', isGroup: true }],
    ['B-closed', { queue: 'B', status: 'closed', user: 'other' }],
    ['A-closed', { queue: 'A', status: 'closed', user: 'other' }],
    ['A-wallet-mine', { queue: 'A', status: 'pending', user: null, wallet: ['user'] }],
    ['A-wallet-other', { queue: 'A', status: 'pending', user: null, wallet: ['other'] }],
    ['B-wallet-mine', { queue: 'B', status: 'pending', user: null, wallet: ['user'] }],
  ];
  const userIds = { user: users.user.id, other: other.id, super: users.super.id };
  for (const [label, d] of defs) {
    const contactId = await insertContact(server, tenant.id, label);
    const walletUserIds = (d.wallet ?? []).map((w) => userIds[w]);
    await setWallets(server, tenant.id, contactId, walletUserIds);
    const queueId = d.queue === 'A' ? queueA : d.queue === 'B' ? queueB : null;
    const userId = d.user ? userIds[d.user] : null;
    const id = await insertTicket(server, tenant.id, {
      contactId,
      status: d.status,
      queueId,
      userId,
      isGroup: d.isGroup ?? false,
      botActive: d.botActive ?? false,
      whatsappId: world.channel,
    });
    tickets.set(label, {
      id,
      facts: {
        ticketId: id,
        contactId,
        queueId,
        userId,
        status: d.status,
        isGroup: d.isGroup ?? false,
        botActive: d.botActive ?? false,
        walletUserIds,
      },
    });
  }
});

afterAll(async () => server?.close());

const ALL = () => [...tickets.keys()];
const labelsOf = (ids: number[]) => {
  const byId = new Map([...tickets].map(([label, t]) => [t.id, label]));
  return ids.map((id) => byId.get(id) ?? `?${id}`).sort();
};

async function listed(viewer: Viewer, showAll: boolean): Promise<string[]> {
  const res = await server.request<TicketListResponse>(
    'GET',
    `/tickets?status=open,pending,closed&pageSize=100&showAll=${showAll}`,
    {
      token: world.users[viewer].token,
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.count).toBe(res.body.tickets.length);
  return labelsOf(res.body.tickets.map((t) => t.id));
}

function predicted(viewer: Viewer, settings: Record<string, string>, showAll: boolean): string[] {
  const u = world.users[viewer];
  const queues = viewer === 'admin' ? [] : [world.queueA];
  const v = buildViewer(
    { tenantId: world.tenant.id, userId: u.id, profile: u.profile, email: u.email },
    { profile: u.profile as Profile, email: u.email, queues },
    settings,
  );
  return [...tickets]
    .filter(([, t]) => canSeeTicket(v, t.facts, { showAll }))
    .map(([label]) => label)
    .sort();
}

const settingsOf = (on: VisibilitySettingKey[]) =>
  Object.fromEntries(VISIBILITY_KEYS.map((k) => [k, on.includes(k) ? 'enabled' : 'disabled']));

const USER_BASE = [
  'A-pending-free',
  'A-open-mine',
  'A-open-other',
  'A-open-super',
  'B-open-mine',
  'A-bot',
  'A-closed',
  'A-wallet-mine',
  'A-wallet-other',
];
const without = (list: string[], ...drop: string[]) => list.filter((l) => !drop.includes(l));

/** Named rows: [viewer, settings on, showAll, expected labels]. */
const TABLE: [Viewer, VisibilitySettingKey[], boolean, string[] | 'ALL'][] = [
  ['user', [], false, USER_BASE],
  ['user', [], true, USER_BASE],
  ['user', ['nullticket'], false, [...USER_BASE, 'null-pending-free', 'null-open-other', 'null-closed-free']],
  [
    'user',
    ['NotViewAssignedTickets'],
    false,
    ['A-pending-free', 'A-open-mine', 'B-open-mine', 'A-bot', 'A-wallet-mine', 'A-wallet-other'],
  ],
  ['user', ['NotViewTicketsChatBot'], false, without(USER_BASE, 'A-bot')],
  ['user', ['DirectTicketsToWallets'], false, [...without(USER_BASE, 'A-wallet-other'), 'B-wallet-mine']],
  ['user', ['mostrarGruposParaTodos'], false, [...USER_BASE, 'B-group']],
  ['user', ['mostrarFechadoParaTodos'], false, [...USER_BASE, 'B-closed', 'null-closed-free']],
  ['user', ['supervisorAdmin'], true, USER_BASE],
  [
    'user',
    ['NotViewAssignedTickets', 'DirectTicketsToWallets'],
    false,
    ['A-pending-free', 'A-open-mine', 'B-open-mine', 'A-bot', 'A-wallet-mine', 'B-wallet-mine'],
  ],
  ['super', [], true, 'ALL'],
  ['super', [], false, [...without(USER_BASE, 'B-open-mine'), 'null-pending-free', 'null-open-other', 'null-closed-free']],
  ['super', ['NotViewAssignedTickets', 'NotViewTicketsChatBot', 'DirectTicketsToWallets'], true, 'ALL'],
  ['super', ['supervisorAdmin'], true, USER_BASE.filter((l) => l !== 'B-open-mine')],
  [
    'super',
    ['supervisorAdmin', 'NotViewAssignedTickets'],
    true,
    ['A-pending-free', 'A-open-super', 'A-bot', 'A-wallet-mine', 'A-wallet-other'],
  ],
  ['admin', [], true, 'ALL'],
  ['admin', [], false, ['null-pending-free', 'null-open-other', 'null-closed-free']],
  ['admin', ['supervisorAdmin', 'NotViewAssignedTickets', 'DirectTicketsToWallets'], true, 'ALL'],
  [
    'admin',
    ['mostrarGruposParaTodos', 'mostrarFechadoParaTodos'],
    false,
    ['null-pending-free', 'null-open-other', 'null-closed-free', 'B-group', 'B-closed', 'A-closed'],
  ],
];

describe('ticket visibility table', () => {
  it.each(TABLE)(
    '%s with [%s], showAll=%s sees exactly the expected tickets (REST and predicate)',
    async (viewer, on, showAll, expected) => {
      const settings = settingsOf(on);
      await setSettings(server, world.tenant.id, settings);
      const want = (expected === 'ALL' ? ALL() : expected).slice().sort();
      expect(await listed(viewer, showAll)).toEqual(want);
      expect(predicted(viewer, settings, showAll)).toEqual(want);
    },
  );

  it('SQL and predicate agree for every profile x allowed setting combination x showAll', async () => {
    const combos: VisibilitySettingKey[][] = [];
    for (let mask = 0; mask < 1 << VISIBILITY_KEYS.length; mask++) {
      const on = VISIBILITY_KEYS.filter((_, i) => mask & (1 << i));
      // The settings screen refuses this combination (spec section 5), so no tenant has it.
      if (findSettingsConflict(settingsOf(on))) continue;
      combos.push(on);
    }
    expect(combos).toHaveLength(112);
    const mismatches: string[] = [];
    for (const on of combos) {
      const settings = settingsOf(on);
      await setSettings(server, world.tenant.id, settings);
      for (const viewer of ['user', 'super', 'admin'] as const) {
        for (const showAll of [false, true]) {
          const rest = await listed(viewer, showAll);
          const pure = predicted(viewer, settings, showAll);
          if (JSON.stringify(rest) !== JSON.stringify(pure)) {
            mismatches.push(
              `${viewer} [${on.join(',')}] showAll=${showAll}: REST ${rest.join(',')} | predicate ${pure.join(',')}`,
            );
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 240_000);

  it('a single load follows the same rule: a hidden ticket of the tenant is 404, like another tenant’s', async () => {
    await setSettings(server, world.tenant.id, settingsOf([]));
    const hidden = tickets.get('B-pending-free')!.id;
    const visible = tickets.get('A-pending-free')!.id;
    const res = await server.request('GET', `/tickets/${hidden}`, { token: world.users.user.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_TICKET_FOUND');
    expect((await server.request('GET', `/tickets/${visible}`, { token: world.users.user.token })).status).toBe(200);
    expect((await server.request('GET', `/tickets/${hidden}`, { token: world.users.admin.token })).status).toBe(200);
    const stranger = await server.createTenantWithUsers();
    const foreign = await server.request('GET', `/tickets/${visible}`, { token: stranger.users.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
    const list = await server.request<TicketListResponse>('GET', '/tickets?status=open,pending,closed&showAll=true', {
      token: stranger.users.admin.token,
    });
    expect(list.body.tickets).toEqual([]);
  });
});
