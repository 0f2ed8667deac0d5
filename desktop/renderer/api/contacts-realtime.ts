import type { ContactImportProgressPayload } from '@shared/schemas/contacts';
import type { AppDispatch, RootState } from '../app/store';
import { baseApi } from './base.api';
import { patchContactInPage, planContactPageChange } from './contact-cache';
import { contactsApi } from './contacts.api';

/**
 * Contact events from the socket (docs/api.md, Socket.IO):
 * - `contact:update` patches each cached page of the list where a contact changed in place and
 *   refetches the pages whose rows or count it changes (contact-cache.ts decides which);
 * - `contactImport:progress` goes to the import dialog that is watching that import, and a
 *   finished import refreshes the list of recent imports.
 */
export function applyContactEvent(dispatch: AppDispatch, getState: () => RootState, payload: unknown): void {
  const cached = contactsApi.util.selectCachedArgsForQuery(getState(), 'listContacts');
  let refetch = false;
  for (const args of cached) {
    const page = contactsApi.endpoints.listContacts.select(args)(getState()).data;
    if (!page) continue;
    const change = planContactPageChange(page, args, payload);
    if (change.kind === 'patch') {
      dispatch(contactsApi.util.updateQueryData('listContacts', args, (draft) => patchContactInPage(draft, change.contact)));
    } else if (change.kind === 'refetch') {
      refetch = true;
    }
  }
  if (refetch) dispatch(baseApi.util.invalidateTags([{ type: 'Contact', id: 'LIST' }]));
}

type ImportProgressListener = (summary: ContactImportProgressPayload) => void;
const importListeners = new Set<ImportProgressListener>();

/** The import dialog listens while it shows a running import; returns the unsubscribe. */
export function subscribeContactImportProgress(listener: ImportProgressListener): () => void {
  importListeners.add(listener);
  return () => importListeners.delete(listener);
}

const isProgress = (value: unknown): value is ContactImportProgressPayload =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ContactImportProgressPayload).id === 'string' &&
  typeof (value as ContactImportProgressPayload).status === 'string';

export function applyContactImportProgress(dispatch: AppDispatch, payload: unknown): void {
  if (!isProgress(payload)) return;
  for (const listener of importListeners) listener(payload);
  if (payload.status === 'done' || payload.status === 'failed') {
    dispatch(baseApi.util.invalidateTags([{ type: 'ContactImport', id: 'LIST' }]));
  }
}
