import type { CacheDatabase } from '../cache/cache-database';

/**
 * The SQL of the media cache (cache migration 4, table `media` in the account's encrypted cache).
 * Like the outbox it runs over `cache.connection`; nothing else touches the table.
 */

export interface StoredMedia {
  mimeType: string;
  bytes: Uint8Array;
}

export interface MediaUsage {
  /** Sum of the cached files' sizes. */
  bytes: number;
  items: number;
}

export interface MediaStore {
  /** The cached file, its last access set to `nowMs`; null when not cached. */
  read(messageId: number, nowMs: number): StoredMedia | null;
  /**
   * Stores a file and evicts the least recently used others until the total fits `budgetBytes`,
   * in one transaction. False when the message is not in the cache (its file is not kept: the
   * row would have nothing to go with) or the file alone exceeds the budget.
   */
  put(messageId: number, file: StoredMedia, nowMs: number, budgetBytes: number): boolean;
  /** Evicts the least recently used files until the total fits; answers how many went. */
  evictTo(budgetBytes: number): number;
  usage(): MediaUsage;
  clear(): void;
}

export function createMediaStore(cache: CacheDatabase): MediaStore {
  const db = cache.connection;
  const select = db.prepare(`SELECT mime_type, bytes FROM media WHERE message_id = ?`);
  const touch = db.prepare(`UPDATE media SET last_access_ms = max(last_access_ms, ?) WHERE message_id = ?`);
  const messageCached = db.prepare(`SELECT 1 FROM messages WHERE id = ?`).pluck();
  const upsert = db.prepare(`
    INSERT INTO media (message_id, mime_type, size, last_access_ms, bytes) VALUES (@messageId, @mimeType, @size, @now, @bytes)
    ON CONFLICT (message_id) DO UPDATE SET
      mime_type = excluded.mime_type, size = excluded.size, last_access_ms = excluded.last_access_ms, bytes = excluded.bytes`);
  // Both read the covering index media_by_access only, never a file's pages.
  const totals = db.prepare(`SELECT coalesce(sum(size), 0) AS bytes, count(*) AS items FROM media`);
  const oldest = db.prepare(`SELECT message_id, size FROM media ORDER BY last_access_ms, message_id`);
  const remove = db.prepare(`DELETE FROM media WHERE message_id = ?`);
  const removeAll = db.prepare(`DELETE FROM media`);

  const usage = (): MediaUsage => {
    const row = totals.get() as { bytes: number; items: number };
    return { bytes: row.bytes, items: row.items };
  };

  /** Oldest access first; `keep` (the file just stored) never goes. */
  const evict = (budgetBytes: number, keep: number | null): number => {
    let total = usage().bytes;
    if (total <= budgetBytes) return 0;
    const victims: number[] = [];
    for (const row of oldest.iterate() as Iterable<{ message_id: number; size: number }>) {
      if (total <= budgetBytes) break;
      if (row.message_id === keep) continue;
      victims.push(row.message_id);
      total -= row.size;
    }
    for (const id of victims) remove.run(id);
    return victims.length;
  };

  const put = db.transaction((messageId: number, file: StoredMedia, nowMs: number, budgetBytes: number): boolean => {
    if (file.bytes.byteLength > budgetBytes) return false;
    if (!messageCached.get(messageId)) return false;
    upsert.run({
      messageId,
      mimeType: file.mimeType,
      size: file.bytes.byteLength,
      now: nowMs,
      bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
    });
    evict(budgetBytes, messageId);
    return true;
  });
  const evictTo = db.transaction((budgetBytes: number) => evict(budgetBytes, null));

  return {
    read(messageId, nowMs) {
      const row = select.get(messageId) as { mime_type: string; bytes: Buffer } | undefined;
      if (!row) return null;
      touch.run(nowMs, messageId);
      return { mimeType: row.mime_type, bytes: new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength) };
    },
    put: (messageId, file, nowMs, budgetBytes) => put.immediate(messageId, file, nowMs, budgetBytes),
    evictTo: (budgetBytes) => evictTo.immediate(budgetBytes),
    usage,
    clear() {
      removeAll.run();
    },
  };
}
