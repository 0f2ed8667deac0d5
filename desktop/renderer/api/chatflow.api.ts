import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type {
  ChatFlow,
  ChatFlowExport,
  ChatFlowSummary,
  ChatFlowTestResult,
  CreateChatFlowInput,
  UpdateChatFlowInput,
} from '@shared/schemas/chatflow';
import { baseApi } from './base.api';
import { blobOrErrorBody, fileNameFromContentDisposition, saveBlobAs } from './file-download';

/**
 * Chatbot flows (docs/api.md, "Chatbot flows"): the list and builder of /chat-flow, and the
 * active flows' names for the transfer dialog. `testChatFlow` is the engine's
 * POST /chat-flow/:id/test (it runs the flow against the flow's test number on a real channel).
 */
export type { ChatFlow, ChatFlowSummary };

export const chatFlowApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listChatFlows: build.query<ChatFlow[], void>({
      query: () => '/chat-flow',
      providesTags: ['ChatFlow'],
    }),
    /** Every profile: the active flows (id, name) for "transfer to chatbot". */
    listActiveChatFlows: build.query<ChatFlowSummary[], void>({
      query: () => ({ url: '/chat-flow', params: { active: 'true' } }),
      providesTags: ['ChatFlow'],
    }),
    getChatFlow: build.query<ChatFlow, number>({
      query: (id) => `/chat-flow/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'ChatFlow', id }],
    }),
    createChatFlow: build.mutation<ChatFlow, CreateChatFlowInput>({
      query: (body) => ({ url: '/chat-flow', method: 'POST', body }),
      invalidatesTags: ['ChatFlow'],
    }),
    updateChatFlow: build.mutation<ChatFlow, { id: number; body: UpdateChatFlowInput }>({
      query: ({ id, body }) => ({ url: `/chat-flow/${id}`, method: 'PUT', body }),
      invalidatesTags: ['ChatFlow'],
    }),
    deleteChatFlow: build.mutation<void, number>({
      query: (id) => ({ url: `/chat-flow/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ChatFlow'],
    }),
    duplicateChatFlow: build.mutation<ChatFlow, number>({
      query: (id) => ({ url: `/chat-flow/${id}/duplicate`, method: 'POST' }),
      invalidatesTags: ['ChatFlow'],
    }),
    importChatFlow: build.mutation<ChatFlow, ChatFlowExport>({
      query: (body) => ({ url: '/chat-flow/import', method: 'POST', body }),
      invalidatesTags: ['ChatFlow'],
    }),
    /** Downloads the export file (the token cannot ride on a plain link). Only its name enters the store. */
    exportChatFlow: build.mutation<{ fileName: string }, number>({
      async queryFn(id, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({ url: `/chat-flow/${id}/export`, responseHandler: blobOrErrorBody });
        if (result.error) return { error: result.error };
        const header = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('content-disposition');
        const fileName = fileNameFromContentDisposition(header) ?? `fluxo-${id}.json`;
        saveBlobAs(result.data as Blob, fileName);
        return { data: { fileName } };
      },
    }),
    /** The engine's test run (POST /chat-flow/:id/test): the stored flow for its test number on the default connection. */
    testChatFlow: build.mutation<ChatFlowTestResult, number>({
      query: (id) => ({ url: `/chat-flow/${id}/test`, method: 'POST', body: {} }),
    }),
  }),
});

export const {
  useListChatFlowsQuery,
  useListActiveChatFlowsQuery,
  useGetChatFlowQuery,
  useCreateChatFlowMutation,
  useUpdateChatFlowMutation,
  useDeleteChatFlowMutation,
  useDuplicateChatFlowMutation,
  useImportChatFlowMutation,
  useExportChatFlowMutation,
  useTestChatFlowMutation,
} = chatFlowApi;
