import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type {
  GroupDto,
  GroupOperationDto,
  GroupOperationKind,
  GroupParticipantDto,
  GroupRuleDto,
  GroupSyncAnswer,
} from '@shared/schemas/groups';
import { baseApi } from './base.api';
import { blobOrErrorBody, fileNameFromContentDisposition, saveBlobAs } from './file-download';

/**
 * WhatsApp groups of QR channels (docs/api.md, "WhatsApp groups"): the stored groups and their
 * sync, the rules (ban list, forbidden words, greetings, farewells), the mass operations (202,
 * then polled) and the participants export.
 */
export type { GroupDto, GroupOperationDto, GroupParticipantDto, GroupRuleDto, GroupSyncAnswer };

export type GroupRuleKind = 'banlist' | 'wordlist' | 'greetings' | 'farewells';
const OPERATION_PATH: Record<GroupOperationKind, string> = { update: 'update', create: 'create', participants: 'participants' };

export const groupsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listGroups: build.query<GroupDto[], number>({
      query: (whatsappId) => ({ url: '/groups', params: { whatsappId } }),
      providesTags: ['Group'],
    }),
    syncGroups: build.mutation<GroupSyncAnswer, number>({
      query: (whatsappId) => ({ url: '/groups/sync', method: 'POST', body: { whatsappId } }),
      invalidatesTags: (_r, error) => (error ? [] : ['Group']),
    }),
    listGroupRules: build.query<GroupRuleDto[], { kind: GroupRuleKind; whatsappId?: number }>({
      query: ({ kind, whatsappId }) => ({ url: `/groups/${kind}`, params: whatsappId ? { whatsappId } : {} }),
      providesTags: ['GroupRule'],
    }),
    createGroupRule: build.mutation<GroupRuleDto[], { kind: GroupRuleKind; body: Record<string, unknown> }>({
      query: ({ kind, body }) => ({ url: `/groups/${kind}`, method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['GroupRule']),
    }),
    deleteGroupRule: build.mutation<void, { kind: GroupRuleKind; id: number }>({
      query: ({ kind, id }) => ({ url: `/groups/${kind}/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['GroupRule']),
    }),
    startGroupOperation: build.mutation<GroupOperationDto, { kind: GroupOperationKind; body: Record<string, unknown> }>({
      query: ({ kind, body }) => ({ url: `/groups/operations/${OPERATION_PATH[kind]}`, method: 'POST', body }),
    }),
    getGroupOperation: build.query<GroupOperationDto, string>({
      query: (id) => ({ url: `/groups/operations/${id}` }),
    }),
    exportGroupParticipants: build.mutation<{ fileName: string; size: number }, { whatsappId: number; groupIds: number[]; format: 'csv' | 'xlsx' }>({
      async queryFn(arg, _api, _extra, baseQuery) {
        const result = await baseQuery({
          url: '/groups/participants/export',
          params: { whatsappId: arg.whatsappId, groupIds: arg.groupIds.join(','), format: arg.format },
          responseHandler: blobOrErrorBody,
        });
        if (result.error) return { error: result.error };
        const blob = result.data as Blob;
        const header = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('content-disposition');
        const fileName = fileNameFromContentDisposition(header) ?? `participantes-grupos.${arg.format}`;
        saveBlobAs(blob, fileName);
        return { data: { fileName, size: blob.size } };
      },
    }),
  }),
});

export const {
  useListGroupsQuery,
  useSyncGroupsMutation,
  useListGroupRulesQuery,
  useCreateGroupRuleMutation,
  useDeleteGroupRuleMutation,
  useStartGroupOperationMutation,
  useGetGroupOperationQuery,
  useExportGroupParticipantsMutation,
} = groupsApi;
