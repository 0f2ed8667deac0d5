import { SOCKET_EVENTS } from '@shared/events';
import { BUSINESS_TIME_ZONE, parseScheduleDate } from '@shared/schemas/messages';
import type { NotificationCreatePayload } from '@shared/schemas/notifications';
import {
  TASK_PAGE_SIZE,
  TASK_REMINDER_LEAD_MINUTES,
  type CreateTaskCommentInput,
  TASK_FIELDS,
  type CreateTaskInput,
  type TaskCommentDto,
  type TaskDto,
  type TaskEventPayload,
  type TaskFinishDto,
  type TaskListQuery,
  type TaskPageDto,
  type TaskSummaryDto,
  type TaskSummaryQuery,
  type UpdateTaskInput,
} from '@shared/schemas/tasks';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { updateReturning, type Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { presentNotification, type NotificationRow } from '../notifications/notifications.presenter';
import { authorizeCommentRemoval, authorizeTask, seesAllTasks } from './tasks.policy';
import { presentTask, presentTaskComment, type TaskCommentRow, type TaskRow } from './tasks.presenter';

type TasksDeps = Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'logger'>;

const DAY_MS = 24 * 60 * 60_000;
/** Reminders sent per sweep run at most; the next run takes the rest. */
const REMINDER_BATCH = 200;

/** A task row with its owner's and contact's names and its comment count. */
const SELECT_TASK = `
  SELECT t.*, u.name AS "ownerName", c.name AS "contactName",
         (SELECT count(*) FROM task_comments tc WHERE tc."taskId" = t.id)::int AS "commentCount"
    FROM tasks t
    LEFT JOIN users u ON u.id = t."ownerId"
    LEFT JOIN contacts c ON c.id = t."contactId"`;

const WRITABLE = TASK_FIELDS;

/**
 * Tasks (/tarefas). Visibility and rights: tasks.policy.ts. Every write records a `task:update`
 * or `task:delete` event (ids only) in its transaction, so an open list refetches.
 */
export class TasksService {
  constructor(private readonly deps: TasksDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async list(auth: AuthContext, query: TaskListQuery): Promise<TaskPageDto> {
    const params: unknown[] = [auth.tenantId];
    const where = [`t."tenantId" = $1`];
    if (!seesAllTasks(auth)) {
      params.push(auth.userId);
      where.push(`(t."ownerId" = $${params.length} OR t."createdById" = $${params.length})`);
    }
    if (query.ownerId) {
      params.push(query.ownerId);
      where.push(`t."ownerId" = $${params.length}`);
    }
    if (query.status === 'finished') where.push(`t.status = 'finished'`);
    if (query.status === 'pending' || query.status === 'delayed') {
      params.push(this.now());
      where.push(`t.status = 'pending' AND t."limitDate" ${query.status === 'pending' ? '>=' : '<'} $${params.length}`);
    }
    if (query.priority) {
      params.push(query.priority);
      where.push(`t.priority = $${params.length}`);
    }
    if (query.searchParam) {
      params.push(`%${query.searchParam.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
      where.push(`(t.name ILIKE $${params.length} OR t.description ILIKE $${params.length})`);
    }
    params.push(TASK_PAGE_SIZE + 1, (query.pageNumber - 1) * TASK_PAGE_SIZE);
    const page = (await this.deps.dataSource.query(
      `${SELECT_TASK.replace('SELECT t.*', 'SELECT t.*, count(*) OVER () AS "totalCount"')}
        WHERE ${where.join(' AND ')}
        ORDER BY t."limitDate", t.id
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    )) as (TaskRow & { totalCount: string })[];
    const now = this.now();
    return {
      tasks: page.slice(0, TASK_PAGE_SIZE).map((r) => presentTask(r, now)),
      count: page.length > 0 ? Number(page[0].totalCount) : 0,
      hasMore: page.length > TASK_PAGE_SIZE,
    };
  }

  /** Counters by derived status of the tasks the caller sees (of one owner when given). */
  async summary(auth: AuthContext, query: TaskSummaryQuery): Promise<TaskSummaryDto> {
    const params: unknown[] = [auth.tenantId, this.now()];
    const where = [`"tenantId" = $1`];
    if (!seesAllTasks(auth)) {
      params.push(auth.userId);
      where.push(`("ownerId" = $${params.length} OR "createdById" = $${params.length})`);
    }
    if (query.ownerId) {
      params.push(query.ownerId);
      where.push(`"ownerId" = $${params.length}`);
    }
    const [row] = (await this.deps.dataSource.query(
      `SELECT count(*) FILTER (WHERE status = 'pending' AND "limitDate" >= $2)::int AS pending,
              count(*) FILTER (WHERE status = 'pending' AND "limitDate" < $2)::int AS delayed,
              count(*) FILTER (WHERE status = 'finished')::int AS finished,
              count(*)::int AS total
         FROM tasks WHERE ${where.join(' AND ')}`,
      params,
    )) as TaskSummaryDto[];
    return row;
  }

  async get(auth: AuthContext, id: number): Promise<TaskDto> {
    return presentTask(authorizeTask(auth, await this.load(this.deps.dataSource, auth.tenantId, id)), this.now());
  }

  async create(auth: AuthContext, input: CreateTaskInput): Promise<TaskDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      const values = await this.checkedValues(tx, auth, input);
      const limitDate = values.limitDate as Date;
      const [row] = (await tx.query(
        `INSERT INTO tasks ("tenantId", "createdById", name, description, "limitDate", "ownerId", "recurrenceDays", repetitions,
                            priority, "ticketId", "contactId", "reminderSentAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [
          auth.tenantId,
          auth.userId,
          input.name,
          input.description ?? '',
          limitDate,
          input.ownerId,
          input.recurrenceDays ?? 0,
          input.repetitions ?? 0,
          input.priority ?? 'none',
          input.ticketId ?? null,
          input.contactId ?? null,
          this.reminderStateFor(limitDate),
        ],
      )) as { id: number }[];
      await emitTask(emit, auth.tenantId, 'create', row.id);
      return presentTask((await this.load(tx, auth.tenantId, row.id))!, this.now());
    });
  }

  async update(auth: AuthContext, id: number, input: UpdateTaskInput): Promise<TaskDto> {
    const columns = WRITABLE.filter((c) => input[c] !== undefined);
    if (columns.length === 0) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'informe ao menos um campo para alterar' }] });
    }
    return this.deps.events.transaction(async (tx, emit) => {
      authorizeTask(auth, await this.load(tx, auth.tenantId, id, true));
      const values = await this.checkedValues(tx, auth, input);
      const sets = columns.map((c, i) => `"${c}" = $${i + 3}`);
      const params: unknown[] = [id, auth.tenantId, ...columns.map((c) => values[c])];
      // A new limit date wants a new reminder (none when it is already past).
      if (values.limitDate) {
        params.push(this.reminderStateFor(values.limitDate as Date));
        sets.push(`"reminderSentAt" = $${params.length}`);
      }
      await tx.query(`UPDATE tasks SET ${[...sets, '"updatedAt" = now()'].join(', ')} WHERE id = $1 AND "tenantId" = $2`, params);
      await emitTask(emit, auth.tenantId, 'update', id);
      return presentTask((await this.load(tx, auth.tenantId, id))!, this.now());
    });
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      authorizeTask(auth, await this.load(tx, auth.tenantId, id, true));
      await tx.query(`DELETE FROM tasks WHERE id = $1 AND "tenantId" = $2`, [id, auth.tenantId]);
      await emitTask(emit, auth.tenantId, 'delete', id);
    });
  }

  /**
   * Finishes a task. A recurring one with repetitions left gets its next occurrence (limit date
   * + recurrence days, one repetition fewer) exactly once: the row is locked while finishing, a
   * task already finished is answered as it is, and the UNIQUE "parentTaskId" stops a second
   * child even after a reopen and a new finish.
   */
  async finish(auth: AuthContext, id: number): Promise<TaskFinishDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      const task = authorizeTask(auth, await this.load(tx, auth.tenantId, id, true));
      if (task.status !== 'finished') {
        await tx.query(`UPDATE tasks SET status = 'finished', "finishedAt" = $2, "updatedAt" = now() WHERE id = $1`, [
          id,
          this.now(),
        ]);
        await emitTask(emit, auth.tenantId, 'update', id);
        if (task.recurrenceDays > 0 && task.repetitions > 0) {
          const nextLimit = new Date(new Date(task.limitDate).getTime() + task.recurrenceDays * DAY_MS);
          const inserted = (await tx.query(
            `INSERT INTO tasks ("tenantId", "createdById", name, description, "limitDate", "ownerId", "recurrenceDays", repetitions,
                                occurrence, "parentTaskId", priority, "ticketId", "contactId", "reminderSentAt")
             SELECT "tenantId", "createdById", name, description, $2, "ownerId", "recurrenceDays", repetitions - 1,
                    occurrence + 1, id, priority, "ticketId", "contactId", $3
               FROM tasks WHERE id = $1
             ON CONFLICT ("parentTaskId") DO NOTHING
             RETURNING id`,
            [id, nextLimit, this.reminderStateFor(nextLimit)],
          )) as { id: number }[];
          if (inserted[0]) await emitTask(emit, auth.tenantId, 'create', inserted[0].id);
        }
      }
      const [child] = (await tx.query(`SELECT id FROM tasks WHERE "parentTaskId" = $1 AND "tenantId" = $2`, [
        id,
        auth.tenantId,
      ])) as { id: number }[];
      const now = this.now();
      const next = child ? await this.load(tx, auth.tenantId, child.id) : null;
      return {
        task: presentTask((await this.load(tx, auth.tenantId, id))!, now),
        nextTask: next ? presentTask(next, now) : null,
      };
    });
  }

  /** Back to pending. An occurrence already made by the finish stays (it is a task of its own). */
  async reopen(auth: AuthContext, id: number): Promise<TaskDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      const task = authorizeTask(auth, await this.load(tx, auth.tenantId, id, true));
      if (task.status === 'finished') {
        await tx.query(`UPDATE tasks SET status = 'pending', "finishedAt" = NULL, "updatedAt" = now() WHERE id = $1`, [id]);
        await emitTask(emit, auth.tenantId, 'update', id);
      }
      return presentTask((await this.load(tx, auth.tenantId, id))!, this.now());
    });
  }

  async listComments(auth: AuthContext, taskId: number): Promise<TaskCommentDto[]> {
    authorizeTask(auth, await this.load(this.deps.dataSource, auth.tenantId, taskId));
    const rows = (await this.deps.dataSource.query(
      `SELECT tc.*, u.name AS "userName" FROM task_comments tc LEFT JOIN users u ON u.id = tc."userId"
        WHERE tc."taskId" = $1 AND tc."tenantId" = $2 ORDER BY tc.id`,
      [taskId, auth.tenantId],
    )) as TaskCommentRow[];
    return rows.map(presentTaskComment);
  }

  async addComment(auth: AuthContext, taskId: number, input: CreateTaskCommentInput): Promise<TaskCommentDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      authorizeTask(auth, await this.load(tx, auth.tenantId, taskId, true));
      const [row] = (await tx.query(
        `INSERT INTO task_comments ("tenantId", "taskId", "userId", text, "createdAt") VALUES ($1, $2, $3, $4, $5)
         RETURNING *, (SELECT name FROM users WHERE id = $3) AS "userName"`,
        [auth.tenantId, taskId, auth.userId, input.text, this.now()],
      )) as TaskCommentRow[];
      await emitTask(emit, auth.tenantId, 'update', taskId);
      return presentTaskComment(row);
    });
  }

  async removeComment(auth: AuthContext, taskId: number, commentId: number): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      authorizeTask(auth, await this.load(tx, auth.tenantId, taskId, true));
      const [comment] = (await tx.query(`SELECT * FROM task_comments WHERE id = $1 AND "taskId" = $2 AND "tenantId" = $3`, [
        commentId,
        taskId,
        auth.tenantId,
      ])) as TaskCommentRow[];
      if (!comment) throw new AppError('ERR_NOT_FOUND', { message: 'Comentário não encontrado.' });
      authorizeCommentRemoval(auth, comment);
      await tx.query(`DELETE FROM task_comments WHERE id = $1`, [commentId]);
      await emitTask(emit, auth.tenantId, 'update', taskId);
    });
  }

  /**
   * The periodic sweep: pending tasks whose limit date is within the reminder lead get one
   * notification (kind 'task', for the owner's bell). Marking the reminder sent and writing the
   * notification happen in one transaction, and the rows are claimed with SKIP LOCKED, so two
   * sweeps (two processes, or a rerun) never notify twice.
   */
  async sweepReminders(): Promise<number> {
    const now = this.now();
    const dueBy = new Date(now.getTime() + TASK_REMINDER_LEAD_MINUTES * 60_000);
    return this.deps.events.transaction(async (tx, emit) => {
      const due = await updateReturning<{ id: number; tenantId: number; ownerId: number; name: string; limitDate: Date }>(
        tx,
        `WITH due AS (
           SELECT id FROM tasks
            WHERE status = 'pending' AND "reminderSentAt" IS NULL AND "ownerId" IS NOT NULL AND "limitDate" <= $1
            ORDER BY "limitDate" LIMIT ${REMINDER_BATCH}
            FOR UPDATE SKIP LOCKED
         )
         UPDATE tasks t SET "reminderSentAt" = $2 FROM due WHERE t.id = due.id AND t."reminderSentAt" IS NULL
         RETURNING t.id, t."tenantId", t."ownerId", t.name, t."limitDate"`,
        [dueBy, now],
      );
      // Tenant rows are locked (event seq) in id order, so two sweeps cannot deadlock each other.
      due.sort((a, b) => a.tenantId - b.tenantId || a.id - b.id);
      for (const task of due) {
        const [row] = (await tx.query(
          `INSERT INTO notifications (kind, message, link, "tenantIds", "userId", "createdAt")
           VALUES ('task', $1, $2, ARRAY[$3::int], $4, $5)
           RETURNING id, kind, message, link, "createdAt"`,
          [reminderText(task.name, new Date(task.limitDate)), `/tarefas?task=${task.id}`, task.tenantId, task.ownerId, now],
        )) as NotificationRow[];
        const payload: NotificationCreatePayload = { notification: presentNotification({ ...row, read: false }) };
        await emit(task.tenantId, SOCKET_EVENTS.notificationCreate, payload, { scope: 'user', userId: task.ownerId });
      }
      if (due.length > 0) this.deps.logger.info({ reminders: due.length }, 'task reminders sent');
      return due.length;
    });
  }

  /** A limit date already past needs no reminder: it is marked as handled. */
  private reminderStateFor(limitDate: Date): Date | null {
    return limitDate.getTime() <= this.now().getTime() ? this.now() : null;
  }

  /** The input's values as stored: dates read, and the owner, ticket and contact checked to be of the caller's tenant. */
  private async checkedValues(tx: Queryable, auth: AuthContext, input: UpdateTaskInput): Promise<Record<string, unknown>> {
    const values: Record<string, unknown> = { ...input };
    const fields: { path: string; message: string }[] = [];
    if (input.limitDate !== undefined) values.limitDate = parseScheduleDate(input.limitDate);
    const belongs = async (table: string, id: number | null | undefined): Promise<boolean> => {
      if (id === undefined || id === null) return true;
      const rows = (await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 AND "tenantId" = $2`, [id, auth.tenantId])) as unknown[];
      return rows.length > 0;
    };
    if (!(await belongs('users', input.ownerId)))
      fields.push({ path: 'ownerId', message: 'usuário não encontrado nesta empresa' });
    if (!(await belongs('tickets', input.ticketId)))
      fields.push({ path: 'ticketId', message: 'atendimento não encontrado nesta empresa' });
    if (!(await belongs('contacts', input.contactId)))
      fields.push({ path: 'contactId', message: 'contato não encontrado nesta empresa' });
    if (fields.length > 0)
      throw new AppError('ERR_VALIDATION', {
        fields,
        message: `Ops! Verifique os erros... ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`,
      });
    return values;
  }

  private async load(db: Queryable | EntityManager, tenantId: number, id: number, lock = false): Promise<TaskRow | null> {
    if (lock) {
      const locked = (await db.query(`SELECT id FROM tasks WHERE id = $1 AND "tenantId" = $2 FOR UPDATE`, [
        id,
        tenantId,
      ])) as unknown[];
      if (locked.length === 0) return null;
    }
    const [row] = (await db.query(`${SELECT_TASK} WHERE t.id = $1 AND t."tenantId" = $2`, [id, tenantId])) as TaskRow[];
    return row ?? null;
  }
}

async function emitTask(emit: Emit, tenantId: number, action: TaskEventPayload['action'], taskId: number): Promise<void> {
  const payload: TaskEventPayload = { action, taskId };
  await emit(tenantId, action === 'delete' ? SOCKET_EVENTS.taskDelete : SOCKET_EVENTS.taskUpdate, payload);
}

const REMINDER_DATE = new Intl.DateTimeFormat('pt-BR', {
  timeZone: BUSINESS_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

function reminderText(name: string, limitDate: Date): string {
  return `Lembrete: a tarefa "${name}" vence em ${REMINDER_DATE.format(limitDate)}.`;
}
