import { isTaskDelayed, type TaskCommentDto, type TaskDto, type TaskPriority } from '@shared/schemas/tasks';

export interface TaskRow {
  id: number;
  tenantId: number;
  name: string;
  description: string;
  limitDate: Date | string;
  ownerId: number | null;
  ownerName?: string | null;
  createdById: number | null;
  recurrenceDays: number;
  repetitions: number;
  occurrence: number;
  parentTaskId: number | null;
  status: 'pending' | 'finished';
  priority: TaskPriority;
  ticketId: number | null;
  contactId: number | null;
  contactName?: string | null;
  finishedAt: Date | string | null;
  reminderSentAt: Date | string | null;
  commentCount?: number | string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export interface TaskCommentRow {
  id: number;
  tenantId: number;
  taskId: number;
  userId: number | null;
  userName?: string | null;
  text: string;
  createdAt: Date | string;
}

const iso = (d: Date | string): string => new Date(d).toISOString();

/** `now` is the project's clock: "delayed" is computed at read time, never stored. */
export function presentTask(row: TaskRow, now: Date): TaskDto {
  const delayed = isTaskDelayed(row, now);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    limitDate: iso(row.limitDate),
    ownerId: row.ownerId,
    ownerName: row.ownerName ?? null,
    createdById: row.createdById,
    recurrenceDays: Number(row.recurrenceDays),
    repetitions: row.repetitions,
    occurrence: row.occurrence,
    parentTaskId: row.parentTaskId,
    status: row.status === 'finished' ? 'finished' : delayed ? 'delayed' : 'pending',
    delayed,
    priority: row.priority,
    ticketId: row.ticketId,
    contactId: row.contactId,
    contactName: row.contactName ?? null,
    finishedAt: row.finishedAt ? iso(row.finishedAt) : null,
    commentCount: Number(row.commentCount ?? 0),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function presentTaskComment(row: TaskCommentRow): TaskCommentDto {
  return {
    id: row.id,
    taskId: row.taskId,
    userId: row.userId,
    userName: row.userName ?? null,
    text: row.text,
    createdAt: iso(row.createdAt),
  };
}
