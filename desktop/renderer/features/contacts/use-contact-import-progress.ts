import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useLazyGetContactImportQuery } from '../../api/contacts.api';
import { subscribeContactImportProgress } from '../../api/contacts-realtime';
import {
  IMPORT_POLL_INTERVAL_MS,
  importProgressReducer,
  initialImportProgress,
  needsFinalRead,
  shouldPoll,
  type ImportProgressState,
} from './import-progress';

/**
 * One import followed live: the socket's `contactImport:progress` events as they come, GET
 * /contacts/upload/{id} every 2 s whenever the socket has been silent that long (offline
 * socket, another server process), and one last read for the rejected lines once it is done.
 * Mount it with `key={importId}` so a new import starts from a clean state.
 */
export function useContactImportProgress(importId: string): ImportProgressState & { readFailed: boolean } {
  const [state, dispatch] = useReducer(importProgressReducer, importId, initialImportProgress);
  const [readImport, read] = useLazyGetContactImportQuery();
  const stateRef = useRef(state);
  stateRef.current = state;
  const reading = useRef(false);

  const readNow = useCallback(async () => {
    if (reading.current) return;
    reading.current = true;
    try {
      const record = await readImport(importId).unwrap();
      dispatch({ type: 'fetched', record });
    } catch {
      // Quiet (a background call): the next tick tries again, the dialog says the read failed.
    } finally {
      reading.current = false;
    }
  }, [importId, readImport]);

  useEffect(
    () =>
      subscribeContactImportProgress((summary) => {
        dispatch({ type: 'live', summary, at: Date.now() });
      }),
    [],
  );

  // The state as it is now (an import may have finished before this dialog opened).
  useEffect(() => {
    void readNow();
  }, [readNow]);

  useEffect(() => {
    const timer = setInterval(() => {
      // Also retries the final read if it collided with a poll still in flight.
      if (shouldPoll(stateRef.current, Date.now()) || needsFinalRead(stateRef.current)) void readNow();
    }, IMPORT_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [readNow]);

  const finalReadDue = needsFinalRead(state);
  useEffect(() => {
    if (finalReadDue) void readNow();
  }, [finalReadDue, readNow]);

  return { ...state, readFailed: read.isError && state.summary === null };
}
