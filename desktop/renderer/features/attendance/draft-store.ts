/**
 * The composer's draft per ticket, kept in localStorage so it survives switching tickets and a
 * reload. One key per ticket; an empty draft removes its key.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const DRAFT_KEY_PREFIX = 'atendimento:draft:';

export function createDraftStore(store: KeyValueStore) {
  const keyOf = (ticketId: number) => `${DRAFT_KEY_PREFIX}${ticketId}`;
  return {
    read(ticketId: number): string {
      try {
        return store.getItem(keyOf(ticketId)) ?? '';
      } catch {
        return '';
      }
    },
    write(ticketId: number, text: string): void {
      try {
        if (text.length === 0) store.removeItem(keyOf(ticketId));
        else store.setItem(keyOf(ticketId), text);
      } catch {
        // Storage full or disabled: the draft lives only in the composer.
      }
    },
    clear(ticketId: number): void {
      try {
        store.removeItem(keyOf(ticketId));
      } catch {
        // As above.
      }
    },
  };
}
