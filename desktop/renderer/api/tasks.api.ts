import type { ChatUser } from '@shared/schemas/users';
import type { TaskCommentDto, TaskDto, TaskFinishDto, TaskListQuery, TaskPageDto, TaskSummaryDto } from '@shared/schemas/tasks';
import { baseApi } from './base.api';

/**
 * Tasks (/tarefas; docs/api.md "Tasks"): GET/POST /tasks, POST /tasks/summary, GET/PUT/DELETE /tasks/{id},
 * POST /tasks/{id}/finish and /reopen, GET/POST /tasks/{id}/comments,
 * DELETE /tasks/{id}/comments/{commentId}. The owner picker reads GET /users/chat-privado (every
 * colleague of the tenant, for every profile).
 */
export type { TaskDto, TaskCommentDto };

export type TaskListArgs = Partial<Omit<TaskListQuery, 'pageNumber'>> & { pageNumber: number };

export interface TaskBody {
  name: string;
  description: string;
  /** ISO 8601 with offset. */
  limitDate: string;
  ownerId: number;
  recurrenceDays: number;
  repetitions: number;
  priority: string;
  ticketId: number | null;
  contactId: number | null;
}

const LIST_TAG = { type: 'Task' as const, id: 'LIST' };

export const tasksApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listTasks: build.query<TaskPageDto, TaskListArgs>({
      query: (args) => ({
        url: '/tasks',
        params: Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== '')),
      }),
      providesTags: [LIST_TAG],
    }),
    /** Counters by status (anchor path: POST /tasks/summary), of one owner when given. */
    taskSummary: build.query<TaskSummaryDto, { ownerId?: number }>({
      query: (body) => ({ url: '/tasks/summary', method: 'POST', body }),
      providesTags: [LIST_TAG],
    }),
    getTask: build.query<TaskDto, number>({
      query: (id) => `/tasks/${id}`,
      providesTags: [LIST_TAG],
    }),
    listTaskOwners: build.query<ChatUser[], void>({
      query: () => '/users/chat-privado',
    }),
    createTask: build.mutation<TaskDto, TaskBody>({
      query: (body) => ({ url: '/tasks', method: 'POST', body }),
      invalidatesTags: [LIST_TAG],
    }),
    updateTask: build.mutation<TaskDto, { id: number; body: Partial<TaskBody> }>({
      query: ({ id, body }) => ({ url: `/tasks/${id}`, method: 'PUT', body }),
      invalidatesTags: [LIST_TAG],
    }),
    deleteTask: build.mutation<void, number>({
      query: (id) => ({ url: `/tasks/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST_TAG],
    }),
    finishTask: build.mutation<TaskFinishDto, number>({
      query: (id) => ({ url: `/tasks/${id}/finish`, method: 'POST' }),
      invalidatesTags: [LIST_TAG],
    }),
    reopenTask: build.mutation<TaskDto, number>({
      query: (id) => ({ url: `/tasks/${id}/reopen`, method: 'POST' }),
      invalidatesTags: [LIST_TAG],
    }),
    listTaskComments: build.query<TaskCommentDto[], number>({
      query: (taskId) => `/tasks/${taskId}/comments`,
      providesTags: (_result, _error, taskId) => [{ type: 'TaskComment', id: taskId }],
    }),
    addTaskComment: build.mutation<TaskCommentDto, { taskId: number; text: string }>({
      query: ({ taskId, text }) => ({ url: `/tasks/${taskId}/comments`, method: 'POST', body: { text } }),
      invalidatesTags: (_result, _error, { taskId }) => [{ type: 'TaskComment', id: taskId }, LIST_TAG],
    }),
    deleteTaskComment: build.mutation<void, { taskId: number; commentId: number }>({
      query: ({ taskId, commentId }) => ({ url: `/tasks/${taskId}/comments/${commentId}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, { taskId }) => [{ type: 'TaskComment', id: taskId }, LIST_TAG],
    }),
  }),
});

export const {
  useListTasksQuery,
  useListTaskOwnersQuery,
  useGetTaskQuery,
  useTaskSummaryQuery,
  useCreateTaskMutation,
  useUpdateTaskMutation,
  useDeleteTaskMutation,
  useFinishTaskMutation,
  useReopenTaskMutation,
  useListTaskCommentsQuery,
  useAddTaskCommentMutation,
  useDeleteTaskCommentMutation,
} = tasksApi;
