import Router from '@koa/router';
import {
  CreateTaskCommentSchema,
  CreateTaskSchema,
  TaskListQuerySchema,
  TaskSummaryQuerySchema,
  UpdateTaskSchema,
} from '@shared/schemas/tasks';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { TasksService } from './tasks.service';

/** The reminder sweep: every minute, so a reminder comes at most a minute after its time. */
export const TASK_REMINDERS_TASK = 'tasks.reminders';
const REMINDER_SWEEP_MS = 60_000;

/** Read-only fields of a task an editing client sends back with the row it read. */
const TASK_ECHOED = [
  ...ECHOED_ROW_FIELDS,
  'ownerName',
  'createdById',
  'occurrence',
  'parentTaskId',
  'status',
  'delayed',
  'contactName',
  'finishedAt',
  'commentCount',
];

/**
 * Tasks (/tarefas; docs/api.md "Tasks"): GET/POST /tasks, GET/PUT/DELETE /tasks/:taskId,
 * POST /tasks/summary (anchor paths), POST /tasks/:taskId/finish and /reopen, GET/POST /tasks/:taskId/comments,
 * DELETE /tasks/:taskId/comments/:commentId. Rights: tasks.policy.ts.
 */
export function tasksRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const tasks = new TasksService(deps);

  deps.periodic.register({
    name: TASK_REMINDERS_TASK,
    intervalMs: REMINDER_SWEEP_MS,
    run: async () => {
      await tasks.sweepReminders();
    },
  });

  router.get('/tasks', auth, validate(TaskListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await tasks.list(authOf(ctx), ctx.input);
  });

  router.post('/tasks', auth, validate(CreateTaskSchema, 'body', { echoed: TASK_ECHOED }), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await tasks.create(authOf(ctx), ctx.input);
  });

  router.post('/tasks/summary', auth, validate(TaskSummaryQuerySchema), async (ctx: AppContext) => {
    ctx.body = await tasks.summary(authOf(ctx), ctx.input);
  });

  router.get('/tasks/:taskId', auth, async (ctx: AppContext) => {
    ctx.body = await tasks.get(authOf(ctx), intParam(ctx, 'taskId'));
  });

  router.put('/tasks/:taskId', auth, validate(UpdateTaskSchema, 'body', { echoed: TASK_ECHOED }), async (ctx: AppContext) => {
    ctx.body = await tasks.update(authOf(ctx), intParam(ctx, 'taskId'), ctx.input);
  });

  router.delete('/tasks/:taskId', auth, async (ctx: AppContext) => {
    await tasks.remove(authOf(ctx), intParam(ctx, 'taskId'));
    ctx.status = 204;
  });

  router.post('/tasks/:taskId/finish', auth, async (ctx: AppContext) => {
    ctx.body = await tasks.finish(authOf(ctx), intParam(ctx, 'taskId'));
  });

  router.post('/tasks/:taskId/reopen', auth, async (ctx: AppContext) => {
    ctx.body = await tasks.reopen(authOf(ctx), intParam(ctx, 'taskId'));
  });

  router.get('/tasks/:taskId/comments', auth, async (ctx: AppContext) => {
    ctx.body = await tasks.listComments(authOf(ctx), intParam(ctx, 'taskId'));
  });

  router.post('/tasks/:taskId/comments', auth, validate(CreateTaskCommentSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await tasks.addComment(authOf(ctx), intParam(ctx, 'taskId'), ctx.input);
  });

  router.delete('/tasks/:taskId/comments/:commentId', auth, async (ctx: AppContext) => {
    await tasks.removeComment(authOf(ctx), intParam(ctx, 'taskId'), intParam(ctx, 'commentId'));
    ctx.status = 204;
  });

  return router;
}
