import { QUICK_MESSAGE_MEDIA_FIELD, type QuickMessage } from '@shared/schemas/quick-messages';
import { baseApi } from './base.api';
import { type CatalogListRules } from './catalog-cache';

/**
 * Quick messages: GET/POST /fastreply, PUT/DELETE /fastreply/{id}, GET /fastreply/{id}/file.
 * A write with a file goes as multipart/form-data (file in `medias`), otherwise as JSON.
 */
export type { QuickMessage };

export interface QuickMessageBody {
  key: string;
  message: string;
  sendAsVoice: boolean;
  active: boolean;
  /** A new file to attach (replaces the current one). */
  file?: File | null;
  /** Drop the current file (update only). */
  removeMedia?: boolean;
}

export const quickMessageListRules: CatalogListRules<QuickMessage> = {
  key: 'fastReply',
  compare: (a, b) => a.key.toLowerCase().localeCompare(b.key.toLowerCase()) || a.id - b.id,
};

/** JSON, or multipart when a file goes along (booleans as 'true'/'false', read by formBoolean). */
export function quickMessageRequestBody({ file, ...fields }: QuickMessageBody): FormData | Omit<QuickMessageBody, 'file'> {
  const json = { ...fields };
  if (!json.removeMedia) delete json.removeMedia;
  if (!file) return json;
  const form = new FormData();
  for (const [name, value] of Object.entries(json)) form.append(name, String(value));
  form.append(QUICK_MESSAGE_MEDIA_FIELD, file, file.name);
  return form;
}

export const quickMessagesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listQuickMessages: build.query<QuickMessage[], void>({
      query: () => '/fastreply',
      providesTags: ['QuickMessage'],
    }),
    createQuickMessage: build.mutation<QuickMessage, QuickMessageBody>({
      query: (body) => ({ url: '/fastreply', method: 'POST', body: quickMessageRequestBody(body) }),
      invalidatesTags: ['QuickMessage'],
    }),
    updateQuickMessage: build.mutation<QuickMessage, { id: number; body: QuickMessageBody }>({
      query: ({ id, body }) => ({ url: `/fastreply/${id}`, method: 'PUT', body: quickMessageRequestBody(body) }),
      invalidatesTags: ['QuickMessage'],
    }),
    deleteQuickMessage: build.mutation<void, number>({
      query: (id) => ({ url: `/fastreply/${id}`, method: 'DELETE' }),
      invalidatesTags: ['QuickMessage'],
    }),
    /**
     * The attached file (authenticated, so a plain link cannot fetch it), answered as an object
     * URL: the store keeps a string, never a Blob. The caller revokes it after use.
     */
    fetchQuickMessageFile: build.mutation<string, number>({
      query: (id) => ({
        url: `/fastreply/${id}/file`,
        responseHandler: async (response) => (response.ok ? URL.createObjectURL(await response.blob()) : response.json()),
      }),
    }),
  }),
});

export const {
  useListQuickMessagesQuery,
  useCreateQuickMessageMutation,
  useUpdateQuickMessageMutation,
  useDeleteQuickMessageMutation,
  useFetchQuickMessageFileMutation,
} = quickMessagesApi;
