import type {
  BulkKind,
  BulkMediaType,
  BulkSendCreatedDto,
  BulkSendDto,
  BulkSendResultsAnswer,
} from '@shared/schemas/bulk-sends';
import type { CampaignContactStatus, CampaignTemplateVariables } from '@shared/schemas/campaigns';
import type { StoredTemplateDto } from '@shared/schemas/templates';
import { baseApi } from './base.api';

/**
 * Bulk sends of /massa/* (docs/api.md, Bulk sends) and the synced templates of a channel (the
 * template choice of bulk sends and campaigns). The screen refetches on `bulkSend:update`.
 */
export interface BulkSendBody {
  kind: BulkKind;
  channelId: number;
  destinations: string;
  message?: string | null;
  mediaUrl?: string | null;
  mediaType?: BulkMediaType | null;
  minDelay: number;
  maxDelay: number;
  templateName?: string | null;
  templateLanguage?: string | null;
  templateVariables?: CampaignTemplateVariables;
}

const LIST = { type: 'BulkSend' as const, id: 'LIST' };
const one = (id: number) => ({ type: 'BulkSend' as const, id });

export const bulkSendsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listBulkSends: build.query<BulkSendDto[], BulkKind>({
      query: (kind) => ({ url: '/bulk-sends', params: { kind } }),
      providesTags: [LIST],
    }),
    getBulkSend: build.query<BulkSendDto, number>({
      query: (id) => `/bulk-sends/${id}`,
      providesTags: (_r, _e, id) => [one(id)],
    }),
    bulkSendResults: build.query<BulkSendResultsAnswer, { id: number; pageNumber: number; pageSize: number; status?: CampaignContactStatus }>({
      query: ({ id, pageNumber, pageSize, status }) => ({
        url: `/bulk-sends/${id}/results`,
        params: { pageNumber, pageSize, ...(status ? { status } : {}) },
      }),
      providesTags: (_r, _e, { id }) => [one(id)],
    }),
    createBulkSend: build.mutation<BulkSendCreatedDto, BulkSendBody>({
      query: (body) => ({ url: '/bulk-sends', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    cancelBulkSend: build.mutation<BulkSendDto, number>({
      query: (id) => ({ url: `/bulk-sends/${id}/cancel`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [LIST, one(id)],
    }),
    /** The channel's synced WABA templates (GET /whatsapp/{id}/templates). */
    listChannelTemplates: build.query<StoredTemplateDto[], number>({
      query: (channelId) => `/whatsapp/${channelId}/templates`,
      providesTags: (_r, _e, id) => [{ type: 'ChannelTemplates' as const, id }],
    }),
  }),
});

export const {
  useListBulkSendsQuery,
  useGetBulkSendQuery,
  useBulkSendResultsQuery,
  useCreateBulkSendMutation,
  useCancelBulkSendMutation,
  useListChannelTemplatesQuery,
} = bulkSendsApi;
