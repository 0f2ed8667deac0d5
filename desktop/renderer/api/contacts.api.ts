import type { FetchArgs, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import type {
  ContactDto,
  ContactImportAccepted,
  ContactImportDateFormat,
  ContactImportDto,
  ContactImportSummaryDto,
  ContactListResponse,
  RemoveDuplicatesResponse,
} from '@shared/schemas/contacts';
import type { RootState } from '../app/store';
import type { ContactSyncAnswer } from '@shared/schemas/groups';
import { baseApi } from './base.api';
import { patchContactInPage, type ContactListArgs } from './contact-cache';
import { blobOrErrorBody, fileNameFromContentDisposition, saveBlobAs } from './file-download';

/**
 * Contacts (docs/api.md, Contacts): the paged list with its filters, create/edit/delete, block
 * flags, the background import with its reports, export and the import template (files fetched
 * with the bearer token), duplicate merge and the phone sync.
 */
export type { ContactDto, ContactListArgs, ContactImportDto, ContactImportSummaryDto, RemoveDuplicatesResponse };

export type ContactFileFormat = 'csv' | 'xlsx';

/** What POST and PUT /contacts accept; in a PUT, `null` clears an optional field. */
export interface ContactWriteBody {
  name?: string;
  number?: string | null;
  email?: string | null;
  cpfCnpj?: string | null;
  birthday?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  businessName?: string | null;
  messengerId?: string | null;
  instagramId?: string | null;
  hubWhatsappId?: string | null;
  telegramId?: string | null;
  kanbanId?: number | null;
  tags?: number[];
  wallets?: number[];
  extraInfo?: { name: string; value: string }[];
  blockContact?: boolean;
  blockChatbot?: boolean;
}

/** The list's filters, which the export repeats. */
export type ContactFilterArgs = Omit<ContactListArgs, 'pageNumber' | 'pageSize'>;

/**
 * Files go beyond the 20 s of ordinary calls (spec section 9): a 50 MB import on a slow uplink,
 * or the export of a large tenant, stream for minutes.
 */
const FILE_TIMEOUT_MS = 5 * 60_000;

const LIST_TAG = { type: 'Contact' as const, id: 'LIST' };
const IMPORTS_TAG = { type: 'ContactImport' as const, id: 'LIST' };
/** A refused write changed nothing: no refetch for it. */
const onSuccess =
  <T>(tag: T) =>
  (_result: unknown, error: unknown): T[] =>
    error ? [] : [tag];

/** Query-string form of the filters: ids as `1,2`, the search only from 2 characters (spec section 9). */
export function contactFilterParams(filters: ContactFilterArgs): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  const term = filters.searchParam?.trim() ?? '';
  if (term.length >= CONTACT_SEARCH_MIN_CHARS) params.searchParam = term;
  if (filters.tags?.length) params.tags = filters.tags.join(',');
  if (filters.wallets?.length) params.wallets = filters.wallets.join(',');
  if (filters.kanbanId) params.kanbanId = filters.kanbanId;
  return params;
}

/** The export body: the same filters as JSON (POST /contacts/export). */
function exportBody(format: ContactFileFormat, filters: ContactFilterArgs) {
  const params = contactFilterParams(filters);
  return {
    format,
    ...(params.searchParam ? { searchParam: params.searchParam } : {}),
    ...(filters.tags?.length ? { tags: filters.tags } : {}),
    ...(filters.wallets?.length ? { wallets: filters.wallets } : {}),
    ...(filters.kanbanId ? { kanbanId: filters.kanbanId } : {}),
  };
}

export interface SavedFile {
  fileName: string;
  size: number;
}

/** A write answered with the contact: the single-contact cache (contact panel) takes it. */
async function upsertContactAfter(
  id: number,
  { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: ContactDto }> },
) {
  const result = await queryFulfilled.catch(() => null);
  if (result) dispatch(contactsApi.util.upsertQueryData('getContact', id, result.data));
}

export const contactsApi = baseApi.injectEndpoints({
  endpoints: (build) => {
    /**
     * Fetches a file with the session's token and offers it as a download. Only its name and
     * size enter the store: a Blob is not state.
     */
    const fileDownload = <Arg>(request: (arg: Arg) => FetchArgs, fallbackName: (arg: Arg) => string) =>
      build.mutation<SavedFile, Arg>({
        async queryFn(arg, _api, _extraOptions, baseQuery) {
          const result = await baseQuery({ ...request(arg), responseHandler: blobOrErrorBody, timeout: FILE_TIMEOUT_MS });
          if (result.error) return { error: result.error };
          const blob = result.data as Blob;
          const header = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('content-disposition');
          const fileName = fileNameFromContentDisposition(header) ?? fallbackName(arg);
          saveBlobAs(blob, fileName);
          return { data: { fileName, size: blob.size } };
        },
      });

    return {
      listContacts: build.query<ContactListResponse, ContactListArgs>({
        query: ({ pageNumber, pageSize, ...filters }) => ({
          url: '/contacts',
          params: { pageNumber, pageSize, ...contactFilterParams(filters) },
        }),
        providesTags: (result) => [
          LIST_TAG,
          ...(result?.contacts ?? []).map((contact) => ({ type: 'Contact' as const, id: contact.id })),
        ],
      }),
      /** One contact (the agent console's contact panel). */
      getContact: build.query<ContactDto, number>({
        query: (id) => `/contacts/${id}`,
        providesTags: (_result, _error, id) => [{ type: 'Contact' as const, id }],
      }),
      /** PUT /contact-tags/{id}: replaces the contact's tags. */
      setContactTags: build.mutation<ContactDto, { id: number; tags: number[] }>({
        query: ({ id, tags }) => ({ url: `/contact-tags/${id}`, method: 'PUT', body: { tags } }),
        invalidatesTags: onSuccess(LIST_TAG),
        onQueryStarted: ({ id }, api) => upsertContactAfter(id, api),
      }),
      /** PUT /contact-wallet/{id}: replaces the contact's wallet owners (super, admin). */
      setContactWallets: build.mutation<ContactDto, { id: number; wallets: number[] }>({
        query: ({ id, wallets }) => ({ url: `/contact-wallet/${id}`, method: 'PUT', body: { wallets } }),
        invalidatesTags: onSuccess(LIST_TAG),
        onQueryStarted: ({ id }, api) => upsertContactAfter(id, api),
      }),
      createContact: build.mutation<ContactDto, ContactWriteBody>({
        query: (body) => ({ url: '/contacts', method: 'POST', body }),
        invalidatesTags: onSuccess(LIST_TAG),
      }),
      updateContact: build.mutation<ContactDto, { id: number; body: ContactWriteBody }>({
        query: ({ id, body }) => ({ url: `/contacts/${id}`, method: 'PUT', body }),
        // A new name or new tags can move the contact between pages and filters.
        invalidatesTags: onSuccess(LIST_TAG),
        onQueryStarted: ({ id }, api) => upsertContactAfter(id, api),
      }),
      deleteContact: build.mutation<void, number>({
        query: (id) => ({ url: `/contacts/${id}`, method: 'DELETE' }),
        invalidatesTags: onSuccess(LIST_TAG),
      }),
      /** The switch flips at once; a refusal flips it back (and the base query says why). */
      setContactBlock: build.mutation<ContactDto, { id: number; flag: 'blockContact' | 'blockChatbot'; value: boolean }>({
        query: ({ id, flag, value }) => ({
          url: flag === 'blockContact' ? `/contacts/${id}/block` : `/contacts/${id}/block-chatbot`,
          method: 'PUT',
          body: { [flag]: value },
        }),
        async onQueryStarted({ id, flag, value }, { dispatch, getState, queryFulfilled }) {
          const cached = contactsApi.util.selectCachedArgsForQuery(getState() as RootState, 'listContacts');
          const patches = cached.map((args) =>
            dispatch(
              contactsApi.util.updateQueryData('listContacts', args, (draft) => {
                const row = draft.contacts.find((contact) => contact.id === id);
                if (row) row[flag] = value;
              }),
            ),
          );
          try {
            const { data } = await queryFulfilled;
            for (const args of cached) {
              dispatch(contactsApi.util.updateQueryData('listContacts', args, (draft) => patchContactInPage(draft, data)));
            }
          } catch {
            for (const patch of patches) patch.undo();
          }
        },
      }),

      uploadContactImport: build.mutation<ContactImportAccepted, { file: File; dateFormat: ContactImportDateFormat }>({
        query: ({ file, dateFormat }) => {
          const form = new FormData();
          form.append('dateFormat', dateFormat);
          form.append('file', file, file.name);
          return { url: '/contacts/upload', method: 'POST', body: form, timeout: FILE_TIMEOUT_MS };
        },
        invalidatesTags: onSuccess(IMPORTS_TAG),
      }),
      /** The tenant's last 20 imports, newest first. */
      listContactImports: build.query<ContactImportSummaryDto[], void>({
        query: () => '/contacts/upload',
        providesTags: [IMPORTS_TAG],
      }),
      /** One import with its rejected lines. Quiet: it is polled while an import runs. */
      getContactImport: build.query<ContactImportDto, string>({
        query: (importId) => `/contacts/upload/${encodeURIComponent(importId)}`,
        providesTags: (_result, _error, importId) => [{ type: 'ContactImport', id: importId }],
        extraOptions: { background: true },
      }),

      downloadImportTemplate: fileDownload<ContactFileFormat>(
        (format) => ({ url: '/contacts/import-template', params: { format } }),
        (format) => `modelo-importacao-contatos.${format}`,
      ),
      exportContacts: fileDownload<{ format: ContactFileFormat; filters: ContactFilterArgs }>(
        ({ format, filters }) => ({ url: '/contacts/export', method: 'POST', body: exportBody(format, filters) }),
        ({ format }) => `contatos-${new Date().toISOString().slice(0, 10)}.${format}`,
      ),

      removeDuplicateContacts: build.mutation<RemoveDuplicatesResponse, void>({
        query: () => ({ url: '/contacts/remove-duplicates', method: 'POST' }),
        invalidatesTags: onSuccess(LIST_TAG),
      }),
      /** Import from the phone of the QR channels: counts per channel (others say they cannot). */
      syncContacts: build.mutation<ContactSyncAnswer, void>({
        query: () => ({ url: '/contacts/sync', method: 'POST', body: {} }),
        invalidatesTags: onSuccess(LIST_TAG),
      }),
    };
  },
});

export const {
  useGetContactQuery,
  useSetContactTagsMutation,
  useSetContactWalletsMutation,
  useListContactsQuery,
  useCreateContactMutation,
  useUpdateContactMutation,
  useDeleteContactMutation,
  useSetContactBlockMutation,
  useUploadContactImportMutation,
  useListContactImportsQuery,
  useGetContactImportQuery,
  useLazyGetContactImportQuery,
  useDownloadImportTemplateMutation,
  useExportContactsMutation,
  useRemoveDuplicateContactsMutation,
  useSyncContactsMutation,
} = contactsApi;
