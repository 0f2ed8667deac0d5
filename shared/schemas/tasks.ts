import { z } from 'zod';
import { parseScheduleDate } from './messages';
import { recordIdSchema } from './record-id';

/**
 * Tasks (/tarefas; spec sections 3, 4, 5 and 9): a name, a description, a limit date, an owner
 * (a user of the tenant), a recurrence, repetitions, a status and a priority, comments, and an
 * optional link to a ticket or a contact of the same tenant.
 *
 * Status: `pending` and `finished` are stored; `delayed` is derived (pending past its limit
 * date) and never stored.
 */

/** Spec section 9: task recurrence in days (0: none). */
export const TASK_RECURRENCE_DAYS = [0, 7, 30, 45, 60, 75, 90] as const;
export type TaskRecurrenceDays = (typeof TASK_RECURRENCE_DAYS)[number];
export const TASK_PRIORITIES = ['high', 'medium', 'low', 'none'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export const TASK_STORED_STATUSES = ['pending', 'finished'] as const;
/** Spec section 4: delayed, pending, finished. */
export const TASK_STATUSES = ['pending', 'delayed', 'finished'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_NAME_MAX = 200;
export const TASK_DESCRIPTION_MAX = 5000;
export const TASK_COMMENT_MAX = 2000;
export const TASK_REPETITIONS_MAX = 999;
export const TASK_PAGE_SIZE = 20;
/** The owner is reminded this long before the limit date (the bell, once). */
export const TASK_REMINDER_LEAD_MINUTES = 60;

/** Spec section 5 "Task: required fields" gives no text of its own. */
export const TASK_REQUIRED_MESSAGE = 'Preencha todos os campos obrigatórios.';

/** Whether a task is delayed: pending past its limit date (spec section 4). */
export const isTaskDelayed = (task: { status: string; limitDate: string | Date }, now: Date = new Date()): boolean =>
  task.status !== 'finished' && new Date(task.limitDate).getTime() < now.getTime();

const name = z
  .string({ error: TASK_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: TASK_REQUIRED_MESSAGE })
  .max(TASK_NAME_MAX, { error: `no máximo ${TASK_NAME_MAX} caracteres` });

const description = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .max(TASK_DESCRIPTION_MAX, { error: `no máximo ${TASK_DESCRIPTION_MAX} caracteres` });

/** ISO 8601 (the form sends the instant with its offset) or dd/MM/yyyy HH:mm; kept as text, read by the server. */
const limitDate = z
  .string({ error: TASK_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: TASK_REQUIRED_MESSAGE })
  .refine((v) => parseScheduleDate(v) !== null, { error: 'Data inválida' });

const ownerId = recordIdSchema(undefined, TASK_REQUIRED_MESSAGE);

const recurrenceDays = z.coerce
  .number({ error: 'deve ser um número' })
  .refine((v): v is TaskRecurrenceDays => (TASK_RECURRENCE_DAYS as readonly number[]).includes(v), {
    error: `deve ser ${TASK_RECURRENCE_DAYS.join(', ')}`,
  });

const repetitions = z.coerce
  .number({ error: 'deve ser um número' })
  .int({ error: 'deve ser um número inteiro' })
  .min(0, { error: 'deve ser no mínimo 0' })
  .max(TASK_REPETITIONS_MAX, { error: `deve ser no máximo ${TASK_REPETITIONS_MAX}` });

const priority = z.enum(TASK_PRIORITIES, { error: `deve ser ${TASK_PRIORITIES.join(', ')}` });

/** An optional link; '' (an emptied form field) means none. */
const optionalLink = z.preprocess((v) => (v === '' ? null : v), recordIdSchema().nullable());

/** The fields a task's form edits and the server writes, in the schema's names. */
export const TASK_FIELDS = ['name', 'description', 'limitDate', 'ownerId', 'recurrenceDays', 'repetitions', 'priority', 'ticketId', 'contactId'] as const;

/** POST /tasks body. */
export const CreateTaskSchema = z.object({
  name,
  description: description.optional(),
  limitDate,
  ownerId,
  recurrenceDays: recurrenceDays.optional(),
  repetitions: repetitions.optional(),
  priority: priority.optional(),
  ticketId: optionalLink.optional(),
  contactId: optionalLink.optional(),
});

/** PUT /tasks/{taskId} body: any subset (status changes through finish/reopen). */
export const UpdateTaskSchema = CreateTaskSchema.partial();

/** GET /tasks query. */
export const TaskListQuerySchema = z.object({
  ownerId: recordIdSchema().optional(),
  status: z.enum(TASK_STATUSES, { error: `deve ser ${TASK_STATUSES.join(', ')}` }).optional(),
  priority: priority.optional(),
  searchParam: z.string().trim().max(200).optional(),
  pageNumber: z.coerce
    .number({ error: 'deve ser um número' })
    .int()
    .min(1, { error: 'deve ser no mínimo 1' })
    .max(100_000)
    .default(1),
});

/** POST /tasks/summary body (anchor path): the counters of the caller's visible tasks, of one owner when given. */
export const TaskSummaryQuerySchema = z.object({ ownerId: recordIdSchema().optional() });

export type TaskSummaryQuery = z.infer<typeof TaskSummaryQuerySchema>;

export interface TaskSummaryDto {
  pending: number;
  delayed: number;
  finished: number;
  total: number;
}

/** POST /tasks/{taskId}/comments body. */
export const CreateTaskCommentSchema = z.object({
  text: z
    .string({ error: TASK_REQUIRED_MESSAGE })
    .trim()
    .min(1, { error: TASK_REQUIRED_MESSAGE })
    .max(TASK_COMMENT_MAX, { error: `no máximo ${TASK_COMMENT_MAX} caracteres` }),
});

export type CreateTaskInput = z.infer<typeof CreateTaskSchema>;
export type UpdateTaskInput = z.infer<typeof UpdateTaskSchema>;
export type TaskListQuery = z.infer<typeof TaskListQuerySchema>;
export type CreateTaskCommentInput = z.infer<typeof CreateTaskCommentSchema>;

export interface TaskDto {
  id: number;
  name: string;
  description: string;
  limitDate: string;
  ownerId: number | null;
  ownerName: string | null;
  createdById: number | null;
  recurrenceDays: number;
  repetitions: number;
  occurrence: number;
  parentTaskId: number | null;
  /** Derived: `delayed` when pending past the limit date. */
  status: TaskStatus;
  delayed: boolean;
  priority: TaskPriority;
  ticketId: number | null;
  contactId: number | null;
  contactName: string | null;
  finishedAt: string | null;
  commentCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface TaskPageDto {
  tasks: TaskDto[];
  count: number;
  hasMore: boolean;
}

/** POST /tasks/{taskId}/finish answer: the task, and its next occurrence when one was created now or before. */
export interface TaskFinishDto {
  task: TaskDto;
  nextTask: TaskDto | null;
}

export interface TaskCommentDto {
  id: number;
  taskId: number;
  userId: number | null;
  userName: string | null;
  text: string;
  createdAt: string;
}

/** `task:update` / `task:delete` payload: the client refetches what it shows. */
export interface TaskEventPayload {
  action: 'create' | 'update' | 'delete';
  taskId: number;
}
