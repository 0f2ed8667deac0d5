import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type {
  CampaignContactsAnswer,
  CampaignContactStatus,
  CampaignDetailDto,
  CampaignDto,
  CampaignTemplateVariables,
  ImportCampaignContactsAnswer,
  LinkCampaignContactsAnswer,
} from '@shared/schemas/campaigns';
import { baseApi } from './base.api';
import { blobOrErrorBody, fileNameFromContentDisposition, saveBlobAs } from './file-download';

/**
 * Campaigns of /campanhas and /campanhas/{campanhaId} (docs/api.md, Campaigns). The screens
 * refetch on `campaign:update` / `campaign:delete` (useLiveRefresh), so progress bars follow the
 * sender live.
 */
export interface CampaignFields {
  name: string;
  /** ISO 8601 with offset. */
  start: string;
  message1: string;
  message2: string | null;
  message3: string | null;
  delay: number;
  channelId: number;
  queueId: number | null;
  removeMedia?: boolean;
  /** A WABA template sent instead of the messages (null: free text). */
  templateName?: string | null;
  templateLanguage?: string | null;
  templateVariables?: CampaignTemplateVariables;
}

export interface LinkContactsBody {
  contactIds?: number[];
  filter?: { tags?: number[]; wallets?: number[]; kanbanId?: number; all?: boolean };
}

/** JSON, or multipart when a file goes along (the shared schema reads the texts). */
function campaignRequestBody(fields: CampaignFields, file: File | null | undefined): FormData | CampaignFields {
  if (!file) return fields;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  form.append('medias', file, file.name);
  return form;
}

const LIST = { type: 'Campaign' as const, id: 'LIST' };
const one = (id: number) => ({ type: 'Campaign' as const, id });

export const campaignsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listCampaigns: build.query<CampaignDto[], void>({
      query: () => '/campaigns',
      providesTags: [LIST],
    }),
    getCampaign: build.query<CampaignDetailDto, number>({
      query: (id) => `/campaigns/${id}`,
      providesTags: (_r, _e, id) => [one(id)],
    }),
    listCampaignContacts: build.query<
      CampaignContactsAnswer,
      { id: number; pageNumber: number; pageSize: number; status?: CampaignContactStatus }
    >({
      query: ({ id, pageNumber, pageSize, status }) => ({
        url: `/campaigns/contacts/${id}`,
        params: { pageNumber, pageSize, ...(status ? { status } : {}) },
      }),
      providesTags: (_r, _e, { id }) => [one(id)],
    }),
    createCampaign: build.mutation<CampaignDto, { fields: CampaignFields; file?: File | null }>({
      query: ({ fields, file }) => ({ url: '/campaigns', method: 'POST', body: campaignRequestBody(fields, file) }),
      invalidatesTags: [LIST],
    }),
    updateCampaign: build.mutation<CampaignDto, { id: number; fields: CampaignFields; file?: File | null }>({
      query: ({ id, fields, file }) => ({ url: `/campaigns/${id}`, method: 'PUT', body: campaignRequestBody(fields, file) }),
      invalidatesTags: (_r, _e, { id }) => [LIST, one(id)],
    }),
    deleteCampaign: build.mutation<void, number>({
      query: (id) => ({ url: `/campaigns/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST],
    }),
    startCampaign: build.mutation<CampaignDto, { id: number; startNow: boolean }>({
      query: ({ id, startNow }) => ({ url: `/campaigns/start/${id}`, method: 'POST', body: { startNow } }),
      invalidatesTags: (_r, _e, { id }) => [LIST, one(id)],
    }),
    cancelCampaign: build.mutation<CampaignDto, number>({
      query: (id) => ({ url: `/campaigns/cancel/${id}`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [LIST, one(id)],
    }),
    duplicateCampaign: build.mutation<CampaignDto, number>({
      query: (id) => ({ url: `/campaigns/duplicate/${id}`, method: 'POST' }),
      invalidatesTags: [LIST],
    }),
    linkCampaignContacts: build.mutation<LinkCampaignContactsAnswer, { id: number; body: LinkContactsBody }>({
      query: ({ id, body }) => ({ url: `/campaigns/contacts/${id}`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { id }) => [LIST, one(id)],
    }),
    /** A CSV or XLSX with a number column (and optionally name): docs/api.md, Campaigns. */
    importCampaignContacts: build.mutation<ImportCampaignContactsAnswer, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return { url: `/campaigns/contacts/${id}/import`, method: 'POST', body: form };
      },
      invalidatesTags: (_r, _e, { id }) => [LIST, one(id)],
    }),
    unlinkCampaignContact: build.mutation<LinkCampaignContactsAnswer, { id: number; contactId: number | 'all' }>({
      query: ({ id, contactId }) => ({
        url: contactId === 'all' ? `/campaigns/deleteall/contacts/${id}` : `/campaigns/contacts/${id}/${contactId}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_r, _e, { id }) => [LIST, one(id)],
    }),
    /** Downloads the PDF report with the session's token. */
    downloadCampaignReport: build.mutation<{ fileName: string; size: number }, number>({
      async queryFn(id, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({ url: `/campaigns/report/${id}`, responseHandler: blobOrErrorBody });
        if (result.error) return { error: result.error as FetchBaseQueryError };
        const blob = result.data as Blob;
        const header = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('content-disposition');
        const fileName = fileNameFromContentDisposition(header) ?? `campanha-${id}.pdf`;
        saveBlobAs(blob, fileName);
        return { data: { fileName, size: blob.size } };
      },
    }),
  }),
});

export const {
  useListCampaignsQuery,
  useGetCampaignQuery,
  useListCampaignContactsQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
  useDeleteCampaignMutation,
  useStartCampaignMutation,
  useCancelCampaignMutation,
  useDuplicateCampaignMutation,
  useLinkCampaignContactsMutation,
  useImportCampaignContactsMutation,
  useUnlinkCampaignContactMutation,
  useDownloadCampaignReportMutation,
} = campaignsApi;
