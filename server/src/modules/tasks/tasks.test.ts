import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { TASK_REQUIRED_MESSAGE } from '@shared/schemas/tasks';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { TASK_REMINDERS_TASK } from './tasks.routes';
import { TasksService } from './tasks.service';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A controllable clock that only moves forward from real time: the other test servers on the
 * shared database run the same reminder sweep on the real clock, and never see a task due
 * earlier than this file does.
 */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const inHours = (h: number) => new Date(clock.now().getTime() + h * HOUR_MS).toISOString();

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { clock });
});
afterAll(async () => server?.close());

type Tenant = Awaited<ReturnType<TestServer['createTenantWithUsers']>>;

async function createTask(token: string, body: Record<string, unknown>) {
  const res = await server.request('POST', '/tasks', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const baseTask = (t: Tenant, extra: Record<string, unknown> = {}) => ({
  name: 'Ligar para o cliente',
  description: 'Confirmar a proposta',
  limitDate: inHours(48),
  ownerId: t.users.user.id,
  priority: 'high',
  ...extra,
});

describe('tasks: create, read, update, delete', () => {
  it('creates a task for a user of the tenant, lists it and records task:update for the tenant', async () => {
    const t = await server.createTenantWithUsers();
    const task = await createTask(t.users.admin.token, baseTask(t));
    expect(task).toMatchObject({
      name: 'Ligar para o cliente',
      status: 'pending',
      delayed: false,
      priority: 'high',
      ownerId: t.users.user.id,
      recurrenceDays: 0,
      repetitions: 0,
    });
    const event = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.taskUpdate);
    expect(event?.payload).toEqual({ action: 'create', taskId: task.id });
    const list = await server.request('GET', '/tasks', { token: t.users.super.token });
    expect(list.body.tasks.map((x: any) => x.id)).toEqual([task.id]);
    expect(list.body.count).toBe(1);

    const updated = await server.request('PUT', `/tasks/${task.id}`, {
      token: t.users.user.token,
      body: { name: 'Ligar amanhã', priority: 'low' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Ligar amanhã', priority: 'low', description: 'Confirmar a proposta' });

    const del = await server.request('DELETE', `/tasks/${task.id}`, { token: t.users.admin.token });
    expect(del.status).toBe(204);
    expect((await lastEvent(server, t.tenant.id, SOCKET_EVENTS.taskDelete))?.payload).toEqual({
      action: 'delete',
      taskId: task.id,
    });
    expect((await server.request('GET', `/tasks/${task.id}`, { token: t.users.admin.token })).status).toBe(404);
  });

  it('derives delayed (pending past its limit date) without storing it, and filters by status, owner and priority', async () => {
    const t = await server.createTenantWithUsers();
    const late = await createTask(
      t.users.admin.token,
      baseTask(t, { name: 'Atrasada', limitDate: inHours(-2), priority: 'high' }),
    );
    const onTime = await createTask(
      t.users.admin.token,
      baseTask(t, { name: 'No prazo', ownerId: t.users.super.id, priority: 'low' }),
    );
    const done = await createTask(t.users.admin.token, baseTask(t, { name: 'Feita', limitDate: inHours(-5), priority: 'none' }));
    await server.request('POST', `/tasks/${done.id}/finish`, { token: t.users.admin.token });
    expect(late).toMatchObject({ status: 'delayed', delayed: true });
    const [stored] = await server.deps.dataSource.query(`SELECT status FROM tasks WHERE id = $1`, [late.id]);
    expect(stored.status).toBe('pending');

    const ids = async (query: string) =>
      (await server.request('GET', `/tasks${query}`, { token: t.users.admin.token })).body.tasks.map((x: any) => x.id);
    expect(await ids('?status=delayed')).toEqual([late.id]);
    expect(await ids('?status=pending')).toEqual([onTime.id]);
    expect(await ids('?status=finished')).toEqual([done.id]);
    expect(await ids(`?ownerId=${t.users.super.id}`)).toEqual([onTime.id]);
    expect(await ids('?priority=high')).toEqual([late.id]);

    const summary = await server.request('POST', '/tasks/summary', { token: t.users.admin.token, body: {} });
    expect(summary.body).toEqual({ pending: 1, delayed: 1, finished: 1, total: 3 });
    const ofSuper = await server.request('POST', '/tasks/summary', {
      token: t.users.admin.token,
      body: { ownerId: t.users.super.id },
    });
    expect(ofSuper.body).toEqual({ pending: 1, delayed: 0, finished: 0, total: 1 });
    // An agent counts only their own (all three are owned by the agent but one).
    const agent = await server.request('POST', '/tasks/summary', { token: t.users.user.token });
    expect(agent.body).toEqual({ pending: 0, delayed: 1, finished: 1, total: 2 });
    const malformed = await server.request('POST', '/tasks/summary', { token: t.users.admin.token, body: { ownerId: 'x' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.fields[0].path).toBe('ownerId');

    // Time passes: the on-time task becomes delayed.
    offsetMs += 49 * HOUR_MS;
    expect(await ids('?status=delayed')).toEqual([late.id, onTime.id]);
  });

  it('pages the list 20 at a time', async () => {
    const t = await server.createTenantWithUsers();
    for (let i = 0; i < 21; i++)
      await createTask(t.users.admin.token, baseTask(t, { name: `Tarefa ${i}`, limitDate: inHours(10 + i) }));
    const first = await server.request('GET', '/tasks', { token: t.users.admin.token });
    expect(first.body).toMatchObject({ count: 21, hasMore: true });
    expect(first.body.tasks).toHaveLength(20);
    const second = await server.request('GET', '/tasks?pageNumber=2', { token: t.users.admin.token });
    expect(second.body.tasks.map((x: any) => x.name)).toEqual(['Tarefa 20']);
    expect(second.body.hasMore).toBe(false);
  });

  it('links a contact of the same tenant, never one of another tenant', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const contactA = await server.request('POST', '/contacts', {
      token: a.users.admin.token,
      body: { name: 'Maria', number: `55119${String(Date.now() % 1e8).padStart(8, '0')}` },
    });
    const contactB = await server.request('POST', '/contacts', {
      token: b.users.admin.token,
      body: { name: 'Joana', number: `55219${String(Date.now() % 1e8).padStart(8, '0')}` },
    });
    expect(contactA.status, JSON.stringify(contactA.body)).toBe(201);
    const linked = await createTask(a.users.admin.token, baseTask(a, { contactId: contactA.body.id }));
    expect(linked).toMatchObject({ contactId: contactA.body.id, contactName: 'Maria' });
    const foreign = await server.request('POST', '/tasks', {
      token: a.users.admin.token,
      body: baseTask(a, { contactId: contactB.body.id }),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toEqual([{ path: 'contactId', message: 'contato não encontrado nesta empresa' }]);
    const foreignOwner = await server.request('POST', '/tasks', {
      token: a.users.admin.token,
      body: baseTask(a, { ownerId: b.users.user.id }),
    });
    expect(foreignOwner.status).toBe(400);
    expect(foreignOwner.body.fields[0].path).toBe('ownerId');
    const foreignTicket = await server.request('PUT', `/tasks/${linked.id}`, {
      token: a.users.admin.token,
      body: { ticketId: 2_000_000_000 },
    });
    expect(foreignTicket.status).toBe(400);
    expect(foreignTicket.body.fields[0].path).toBe('ticketId');
  });
});

describe('tasks: validation', () => {
  it('answers 400 ERR_VALIDATION naming each missing required field with the required-fields text', async () => {
    const t = await server.createTenantWithUsers();
    const eventsBefore = await eventCount(server, t.tenant.id);
    const res = await server.request('POST', '/tasks', { token: t.users.admin.token, body: { description: 'sem nome' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    const byPath = Object.fromEntries(res.body.fields.map((f: any) => [f.path, f.message]));
    expect(byPath).toEqual({ name: TASK_REQUIRED_MESSAGE, limitDate: TASK_REQUIRED_MESSAGE, ownerId: TASK_REQUIRED_MESSAGE });
    expect(await eventCount(server, t.tenant.id)).toBe(eventsBefore);
  });

  it('refuses a bad date, recurrence, priority, repetitions, unknown field and comment (400 with fields)', async () => {
    const t = await server.createTenantWithUsers();
    const res = await server.request('POST', '/tasks', {
      token: t.users.admin.token,
      body: {
        ...baseTask(t),
        limitDate: '31/02/2026 10:00',
        recurrenceDays: 10,
        priority: 'urgent',
        repetitions: -1,
        color: 'red',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: any) => f.path).sort()).toEqual([
      'color',
      'limitDate',
      'priority',
      'recurrenceDays',
      'repetitions',
    ]);
    const task = await createTask(t.users.admin.token, baseTask(t));
    const empty = await server.request('PUT', `/tasks/${task.id}`, { token: t.users.admin.token, body: {} });
    expect(empty.status).toBe(400);
    const notJson = await server.request('PUT', `/tasks/${task.id}`, { token: t.users.admin.token, body: { name: '' } });
    expect(notJson.body.fields).toEqual([{ path: 'name', message: TASK_REQUIRED_MESSAGE }]);
    const comment = await server.request('POST', `/tasks/${task.id}/comments`, {
      token: t.users.admin.token,
      body: { text: '   ' },
    });
    expect(comment.status).toBe(400);
    expect(comment.body.fields).toEqual([{ path: 'text', message: TASK_REQUIRED_MESSAGE }]);
    const query = await server.request('GET', '/tasks?status=late', { token: t.users.admin.token });
    expect(query.status).toBe(400);
    expect(query.body.fields[0].path).toBe('status');
    const badId = await server.request('GET', '/tasks/abc', { token: t.users.admin.token });
    expect(badId.status).toBe(400);
  });
});

describe('tasks: tenants and roles', () => {
  it("another tenant's task is 404 for every profile (read, update, delete, finish, comments), the platform superadmin included", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const task = await createTask(a.users.admin.token, baseTask(a));
    const root = await server.platformSuperadmin();
    for (const token of [b.users.admin.token, b.users.super.token, b.users.user.token, root.token]) {
      const counted = await server.request('POST', '/tasks/summary', { token, body: { ownerId: a.users.user.id } });
      expect(counted.body.total).toBe(0);
      expect((await server.request('GET', `/tasks/${task.id}`, { token })).status).toBe(404);
      expect((await server.request('PUT', `/tasks/${task.id}`, { token, body: { name: 'x' } })).status).toBe(404);
      expect((await server.request('POST', `/tasks/${task.id}/finish`, { token })).status).toBe(404);
      expect((await server.request('POST', `/tasks/${task.id}/reopen`, { token })).status).toBe(404);
      expect((await server.request('GET', `/tasks/${task.id}/comments`, { token })).status).toBe(404);
      expect((await server.request('POST', `/tasks/${task.id}/comments`, { token, body: { text: 'oi' } })).status).toBe(404);
      expect((await server.request('DELETE', `/tasks/${task.id}`, { token })).status).toBe(404);
      const list = await server.request('GET', '/tasks', { token });
      expect(list.body.tasks.map((x: any) => x.id)).not.toContain(task.id);
    }
    const [still] = await server.deps.dataSource.query(`SELECT name, status FROM tasks WHERE id = $1`, [task.id]);
    expect(still).toEqual({ name: 'Ligar para o cliente', status: 'pending' });
  });

  it('an agent sees and changes only the tasks they own or created; supervisors and admins see all of the tenant', async () => {
    const t = await server.createTenantWithUsers();
    const other = await server.createUser(t.tenant.id, { profile: 'user' });
    const otherToken = (await server.login(other)).token as string;
    const ownedByAgent = await createTask(t.users.admin.token, baseTask(t, { name: 'Do agente' }));
    const createdByAgent = await createTask(
      t.users.user.token,
      baseTask(t, { name: 'Criada pelo agente', ownerId: t.users.super.id }),
    );
    const notTheirs = await createTask(t.users.admin.token, baseTask(t, { name: 'Do supervisor', ownerId: t.users.super.id }));

    const names = async (token: string) =>
      (await server.request('GET', '/tasks', { token })).body.tasks.map((x: any) => x.name).sort();
    expect(await names(t.users.user.token)).toEqual(['Criada pelo agente', 'Do agente']);
    expect(await names(otherToken)).toEqual([]);
    for (const token of [t.users.super.token, t.users.admin.token]) {
      expect(await names(token)).toEqual(['Criada pelo agente', 'Do agente', 'Do supervisor']);
    }
    // The agent works on their own and on what they created...
    expect(
      (await server.request('PUT', `/tasks/${createdByAgent.id}`, { token: t.users.user.token, body: { priority: 'medium' } }))
        .status,
    ).toBe(200);
    expect((await server.request('POST', `/tasks/${ownedByAgent.id}/finish`, { token: t.users.user.token })).status).toBe(200);
    // ...but not on another's task of the tenant (403), nor does another agent on theirs.
    for (const [token, id] of [
      [t.users.user.token, notTheirs.id],
      [otherToken, ownedByAgent.id],
    ] as const) {
      expect((await server.request('GET', `/tasks/${id}`, { token })).status).toBe(403);
      expect((await server.request('PUT', `/tasks/${id}`, { token, body: { name: 'x' } })).status).toBe(403);
      expect((await server.request('POST', `/tasks/${id}/finish`, { token })).status).toBe(403);
      expect((await server.request('POST', `/tasks/${id}/comments`, { token, body: { text: 'oi' } })).status).toBe(403);
      expect((await server.request('GET', `/tasks/${id}/comments`, { token })).status).toBe(403);
      expect((await server.request('DELETE', `/tasks/${id}`, { token })).status).toBe(403);
    }
    const [row] = await server.deps.dataSource.query(`SELECT name, status FROM tasks WHERE id = $1`, [notTheirs.id]);
    expect(row).toEqual({ name: 'Do supervisor', status: 'pending' });
    // The supervisor changes the agent's task.
    expect((await server.request('DELETE', `/tasks/${createdByAgent.id}`, { token: t.users.super.token })).status).toBe(204);
  });

  it('comments: anyone who sees the task adds and lists them; only the author deletes one', async () => {
    const t = await server.createTenantWithUsers();
    const task = await createTask(t.users.admin.token, baseTask(t));
    const mine = await server.request('POST', `/tasks/${task.id}/comments`, {
      token: t.users.user.token,
      body: { text: 'Cliente não atendeu' },
    });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ taskId: task.id, userId: t.users.user.id, text: 'Cliente não atendeu' });
    await server.request('POST', `/tasks/${task.id}/comments`, {
      token: t.users.admin.token,
      body: { text: 'Tente de novo amanhã' },
    });
    const list = await server.request('GET', `/tasks/${task.id}/comments`, { token: t.users.super.token });
    expect(list.body.map((c: any) => c.text)).toEqual(['Cliente não atendeu', 'Tente de novo amanhã']);
    expect((await server.request('GET', `/tasks/${task.id}`, { token: t.users.admin.token })).body.commentCount).toBe(2);

    const byOther = await server.request('DELETE', `/tasks/${task.id}/comments/${mine.body.id}`, { token: t.users.admin.token });
    expect(byOther.status).toBe(403);
    const wrongTask = await createTask(t.users.admin.token, baseTask(t));
    expect(
      (await server.request('DELETE', `/tasks/${wrongTask.id}/comments/${mine.body.id}`, { token: t.users.user.token })).status,
    ).toBe(404);
    expect(
      (await server.request('DELETE', `/tasks/${task.id}/comments/${mine.body.id}`, { token: t.users.user.token })).status,
    ).toBe(204);
    const after = await server.request('GET', `/tasks/${task.id}/comments`, { token: t.users.user.token });
    expect(after.body.map((c: any) => c.text)).toEqual(['Tente de novo amanhã']);
  });
});

describe('tasks: recurrence', () => {
  it('finishing a 7-day task with repetitions left makes the next occurrence; the last one makes none', async () => {
    const t = await server.createTenantWithUsers();
    const limitDate = inHours(24);
    const first = await createTask(t.users.admin.token, baseTask(t, { limitDate, recurrenceDays: 7, repetitions: 2 }));
    const f1 = await server.request('POST', `/tasks/${first.id}/finish`, { token: t.users.user.token });
    expect(f1.status).toBe(200);
    expect(f1.body.task).toMatchObject({ status: 'finished' });
    expect(Math.abs(new Date(f1.body.task.finishedAt).getTime() - clock.now().getTime())).toBeLessThan(5_000);
    const second = f1.body.nextTask;
    expect(second).toMatchObject({
      status: 'pending',
      repetitions: 1,
      occurrence: 2,
      parentTaskId: first.id,
      recurrenceDays: 7,
      ownerId: t.users.user.id,
      name: first.name,
      priority: 'high',
    });
    expect(new Date(second.limitDate).getTime() - new Date(limitDate).getTime()).toBe(7 * DAY_MS);
    expect((await lastEvent(server, t.tenant.id, SOCKET_EVENTS.taskUpdate))?.payload).toEqual({
      action: 'create',
      taskId: second.id,
    });

    const f2 = await server.request('POST', `/tasks/${second.id}/finish`, { token: t.users.user.token });
    const third = f2.body.nextTask;
    expect(third).toMatchObject({ repetitions: 0, occurrence: 3 });
    expect(new Date(third.limitDate).getTime() - new Date(limitDate).getTime()).toBe(14 * DAY_MS);

    const f3 = await server.request('POST', `/tasks/${third.id}/finish`, { token: t.users.user.token });
    expect(f3.body.nextTask).toBeNull();
    const [{ n }] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tasks WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(n).toBe(3);
  });

  it('finishing twice, after a reopen, or twice at once makes one occurrence', async () => {
    const t = await server.createTenantWithUsers();
    const task = await createTask(t.users.admin.token, baseTask(t, { recurrenceDays: 30, repetitions: 5 }));
    const finishes = await Promise.all(
      [t.users.admin.token, t.users.super.token, t.users.user.token].map((token) =>
        server.request('POST', `/tasks/${task.id}/finish`, { token }),
      ),
    );
    expect(finishes.map((r) => r.status)).toEqual([200, 200, 200]);
    const nextIds = new Set(finishes.map((r) => r.body.nextTask.id));
    expect(nextIds.size).toBe(1);
    expect((await server.request('POST', `/tasks/${task.id}/finish`, { token: t.users.admin.token })).body.nextTask.id).toBe(
      [...nextIds][0],
    );
    const reopened = await server.request('POST', `/tasks/${task.id}/reopen`, { token: t.users.admin.token });
    expect(reopened.body).toMatchObject({ status: 'pending', finishedAt: null });
    const again = await server.request('POST', `/tasks/${task.id}/finish`, { token: t.users.admin.token });
    expect(again.body.nextTask.id).toBe([...nextIds][0]);
    const [{ n }] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tasks WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(n).toBe(2);
  });
});

describe('tasks: reminders', () => {
  const reminders = async (userId: number) =>
    (await server.deps.dataSource.query(`SELECT message, link FROM notifications WHERE "userId" = $1 AND kind = 'task'`, [
      userId,
    ])) as {
      message: string;
      link: string;
    }[];

  it('notifies the owner once, an hour before the limit date, however many times the sweep runs', async () => {
    const t = await server.createTenantWithUsers();
    const soon = await createTask(t.users.admin.token, baseTask(t, { name: 'Enviar contrato', limitDate: inHours(0.5) }));
    await createTask(
      t.users.admin.token,
      baseTask(t, { name: 'Revisar contrato', limitDate: inHours(5), ownerId: t.users.super.id }),
    );
    await createTask(
      t.users.admin.token,
      baseTask(t, { name: 'Já atrasada', limitDate: inHours(-1), ownerId: t.users.admin.id }),
    );

    await server.deps.periodic.runNow(TASK_REMINDERS_TASK);
    await server.deps.periodic.runNow(TASK_REMINDERS_TASK);
    const sent = await reminders(t.users.user.id);
    expect(sent).toHaveLength(1);
    expect(sent[0].link).toBe(`/tarefas?task=${soon.id}`);
    expect(sent[0].message).toContain('Enviar contrato');
    expect(await reminders(t.users.super.id)).toEqual([]);
    // A task created already late gets no reminder.
    expect(await reminders(t.users.admin.id)).toEqual([]);
    // The owner's bell shows it.
    const inbox = await server.request('GET', '/notifications', { token: t.users.user.token });
    expect(inbox.status).toBe(200);
    expect(inbox.body.notifications[0]).toMatchObject({ kind: 'task', link: `/tarefas?task=${soon.id}` });
    const event = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.notificationCreate);
    expect(event?.audience).toEqual({ scope: 'user', userId: t.users.user.id });

    // Four hours and a half later the other task is within the hour.
    offsetMs += 4.5 * HOUR_MS;
    await server.deps.periodic.runNow(TASK_REMINDERS_TASK);
    await server.deps.periodic.runNow(TASK_REMINDERS_TASK);
    expect(await reminders(t.users.super.id)).toHaveLength(1);
    expect(await reminders(t.users.user.id)).toHaveLength(1);
  });

  it('two sweeps at once (two server processes) still notify once', async () => {
    const t = await server.createTenantWithUsers();
    await createTask(t.users.admin.token, baseTask(t, { limitDate: inHours(0.25) }));
    const a = new TasksService(server.deps);
    const b = new TasksService(server.deps);
    await Promise.all([a.sweepReminders(), b.sweepReminders(), server.deps.periodic.runNow(TASK_REMINDERS_TASK)]);
    expect(await reminders(t.users.user.id)).toHaveLength(1);
  });

  it('a finished task is not reminded; a new limit date gets a new reminder', async () => {
    const t = await server.createTenantWithUsers();
    const done = await createTask(t.users.admin.token, baseTask(t, { limitDate: inHours(0.5) }));
    await server.request('POST', `/tasks/${done.id}/finish`, { token: t.users.admin.token });
    const moved = await createTask(t.users.admin.token, baseTask(t, { limitDate: inHours(0.5), ownerId: t.users.super.id }));
    await server.deps.periodic.runNow(TASK_REMINDERS_TASK);
    expect(await reminders(t.users.user.id)).toEqual([]);
    expect(await reminders(t.users.super.id)).toHaveLength(1);
    await server.request('PUT', `/tasks/${moved.id}`, { token: t.users.admin.token, body: { limitDate: inHours(0.75) } });
    await server.deps.periodic.runNow(TASK_REMINDERS_TASK);
    expect(await reminders(t.users.super.id)).toHaveLength(2);
  });
});
