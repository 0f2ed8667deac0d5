import type {
  AutoReply,
  AutoReplyAction,
  AutoReplyActionInput,
  AutoReplyStep,
  AutoReplyStepInput,
  CreateAutoReplyInput,
  UpdateAutoReplyInput,
} from '@shared/schemas/auto-reply';
import { baseApi } from './base.api';

/**
 * Auto-reply (/auto-resposta, docs/api.md): GET/POST /auto-reply, PUT/DELETE
 * /auto-reply/{autoReplyId}, steps under /auto-reply/{idAutoReply}/steps, actions under
 * /auto-reply-action. The list carries every bot with its steps and their actions, so each
 * write refetches it.
 */
export type { AutoReply, AutoReplyAction, AutoReplyStep };

export const autoReplyApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listAutoReplies: build.query<AutoReply[], void>({
      query: () => '/auto-reply',
      providesTags: ['AutoReply'],
    }),
    createAutoReply: build.mutation<AutoReply, CreateAutoReplyInput>({
      query: (body) => ({ url: '/auto-reply', method: 'POST', body }),
      invalidatesTags: ['AutoReply'],
    }),
    updateAutoReply: build.mutation<AutoReply, { id: number; body: UpdateAutoReplyInput }>({
      query: ({ id, body }) => ({ url: `/auto-reply/${id}`, method: 'PUT', body }),
      invalidatesTags: ['AutoReply'],
    }),
    deleteAutoReply: build.mutation<void, number>({
      query: (id) => ({ url: `/auto-reply/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AutoReply'],
    }),
    createAutoReplyStep: build.mutation<AutoReplyStep, { autoReplyId: number; body: AutoReplyStepInput }>({
      query: ({ autoReplyId, body }) => ({ url: `/auto-reply/${autoReplyId}/steps`, method: 'POST', body }),
      invalidatesTags: ['AutoReply'],
    }),
    updateAutoReplyStep: build.mutation<AutoReplyStep, { autoReplyId: number; stepId: number; body: AutoReplyStepInput }>({
      query: ({ autoReplyId, stepId, body }) => ({ url: `/auto-reply/${autoReplyId}/steps/${stepId}`, method: 'PUT', body }),
      invalidatesTags: ['AutoReply'],
    }),
    deleteAutoReplyStep: build.mutation<void, { autoReplyId: number; stepId: number }>({
      query: ({ autoReplyId, stepId }) => ({ url: `/auto-reply/${autoReplyId}/steps/${stepId}`, method: 'DELETE' }),
      invalidatesTags: ['AutoReply'],
    }),
    createAutoReplyAction: build.mutation<AutoReplyAction, AutoReplyActionInput>({
      query: (body) => ({ url: '/auto-reply-action', method: 'POST', body }),
      invalidatesTags: ['AutoReply'],
    }),
    updateAutoReplyAction: build.mutation<AutoReplyAction, { id: number; body: AutoReplyActionInput }>({
      query: ({ id, body }) => ({ url: `/auto-reply-action/${id}`, method: 'PUT', body }),
      invalidatesTags: ['AutoReply'],
    }),
    deleteAutoReplyAction: build.mutation<void, number>({
      query: (id) => ({ url: `/auto-reply-action/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AutoReply'],
    }),
  }),
});

export const {
  useListAutoRepliesQuery,
  useCreateAutoReplyMutation,
  useUpdateAutoReplyMutation,
  useDeleteAutoReplyMutation,
  useCreateAutoReplyStepMutation,
  useUpdateAutoReplyStepMutation,
  useDeleteAutoReplyStepMutation,
  useCreateAutoReplyActionMutation,
  useUpdateAutoReplyActionMutation,
  useDeleteAutoReplyActionMutation,
} = autoReplyApi;
