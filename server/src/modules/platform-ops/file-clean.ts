import { lstat, readdir, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { MESSAGE_MEDIA_FOLDER } from '../messages/message-media';

/** A file younger than this may belong to a row not committed yet (saved first, inserted next). */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Staged update folders kept (the newest ones); older ones are removed by the clean. */
export const STAGED_UPDATES_KEPT = 5;
const REFERENCE_BATCH = 500;

export interface FileCleanResult {
  removedFiles: number;
  removedBytes: number;
  lines: string[];
}

/**
 * The update's "file clean" (spec: update, migration or file clean). Only under DATA_DIR, never
 * following a symbolic link, and only what nothing can still use:
 * 1. `uploads/<id>/` of a tenant that no longer exists (its rows are gone with it);
 * 2. files of `uploads/<tenant>/messages/` that no message of that tenant references any more
 *    (the message was deleted) and that are older than ORPHAN_GRACE_MS;
 * 3. staged update folders under `updates/` beyond the STAGED_UPDATES_KEPT newest.
 * Files of other folders (quick messages, campaigns, imports) are left alone.
 */
export async function cleanOrphanFiles(dataSource: DataSource, dataDir: string, now = Date.now()): Promise<FileCleanResult> {
  const result: FileCleanResult = { removedFiles: 0, removedBytes: 0, lines: [] };
  const uploads = path.resolve(dataDir, 'uploads');
  const tenantDirs = (await entries(uploads)).filter((e) => e.isDirectory() && /^[1-9]\d{0,9}$/.test(e.name));
  const ids = tenantDirs.map((e) => Number(e.name));
  const existing = new Set<number>(
    ids.length
      ? (await dataSource.query(`SELECT id FROM tenants WHERE id = ANY($1::int[])`, [ids])).map((r: { id: number }) => r.id)
      : [],
  );
  for (const dir of tenantDirs) {
    const tenantId = Number(dir.name);
    const folder = path.join(uploads, dir.name);
    if (!existing.has(tenantId)) {
      const size = await treeSize(folder);
      await rm(folder, { recursive: true, force: true });
      result.removedFiles += size.files;
      result.removedBytes += size.bytes;
      result.lines.push(`Empresa ${tenantId} excluída: ${size.files} arquivo(s) removido(s).`);
      continue;
    }
    const removed = await cleanMessageMedia(dataSource, tenantId, path.join(folder, MESSAGE_MEDIA_FOLDER), now);
    if (removed.files > 0)
      result.lines.push(`Empresa ${tenantId}: ${removed.files} mídia(s) de mensagens excluídas removida(s).`);
    result.removedFiles += removed.files;
    result.removedBytes += removed.bytes;
  }
  const staged = (await entries(path.resolve(dataDir, 'updates'))).filter((e) => e.isDirectory()).map((e) => e.name);
  // Folder names start with the staging time in ms, so the name order is the time order.
  staged.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  for (const name of staged.slice(STAGED_UPDATES_KEPT)) {
    const folder = path.resolve(dataDir, 'updates', name);
    const size = await treeSize(folder);
    await rm(folder, { recursive: true, force: true });
    result.removedFiles += size.files;
    result.removedBytes += size.bytes;
    result.lines.push(`Atualização antiga ${name} removida.`);
  }
  if (result.lines.length === 0) result.lines.push('Nenhum arquivo órfão encontrado.');
  return result;
}

async function cleanMessageMedia(dataSource: DataSource, tenantId: number, folder: string, now: number) {
  const removed = { files: 0, bytes: 0 };
  const candidates: { name: string; size: number }[] = [];
  for (const entry of await entries(folder)) {
    if (!entry.isFile()) continue;
    const info = await lstat(path.join(folder, entry.name));
    if (now - info.mtimeMs >= ORPHAN_GRACE_MS) candidates.push({ name: entry.name, size: info.size });
  }
  for (let i = 0; i < candidates.length; i += REFERENCE_BATCH) {
    const batch = candidates.slice(i, i + REFERENCE_BATCH);
    const paths = batch.map((c) => path.posix.join(MESSAGE_MEDIA_FOLDER, c.name));
    const referenced = new Set<string>(
      (
        await dataSource.query(`SELECT "mediaPath" FROM messages WHERE "tenantId" = $1 AND "mediaPath" = ANY($2::varchar[])`, [
          tenantId,
          paths,
        ])
      ).map((r: { mediaPath: string }) => r.mediaPath),
    );
    for (const c of batch) {
      if (referenced.has(path.posix.join(MESSAGE_MEDIA_FOLDER, c.name))) continue;
      await unlink(path.join(folder, c.name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      removed.files += 1;
      removed.bytes += c.size;
    }
  }
  return removed;
}

/** The folder's entries; none when it is missing or is a symbolic link (never followed out of DATA_DIR). */
async function entries(dir: string) {
  try {
    if (!(await lstat(dir)).isDirectory()) return [];
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Files and bytes under a folder, without following links (a link counts as one small file). */
async function treeSize(dir: string): Promise<{ files: number; bytes: number }> {
  const total = { files: 0, bytes: 0 };
  for (const entry of await entries(dir)) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = await treeSize(full);
      total.files += sub.files;
      total.bytes += sub.bytes;
    } else {
      total.files += 1;
      total.bytes += (await lstat(full)).size;
    }
  }
  return total;
}
