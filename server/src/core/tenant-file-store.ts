import { randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Uploaded files of each tenant under `<dataDir>/uploads/<tenantId>/`, never in a public
 * folder: they leave the server only through routes that check the caller's tenant. Stored
 * names are random (the client's name is kept in the database for display only), and every
 * path read back is checked to stay inside the tenant's folder.
 */
export class TenantFileStore {
  constructor(private readonly dataDir: string) {}

  private tenantRoot(tenantId: number): string {
    return path.resolve(this.dataDir, 'uploads', String(tenantId));
  }

  /** Writes the bytes and answers the path relative to the tenant's folder. */
  async save(tenantId: number, folder: string, file: { buffer: Buffer; originalname: string }): Promise<string> {
    const ext = path.extname(file.originalname).toLowerCase();
    const safeExt = /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : '';
    const relative = path.posix.join(folder, `${randomUUID()}${safeExt}`);
    const target = this.resolve(tenantId, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.buffer, { flag: 'wx', mode: 0o640 });
    return relative;
  }

  async open(tenantId: number, relative: string): Promise<{ stream: ReadStream; size: number } | null> {
    const target = this.resolve(tenantId, relative);
    try {
      const info = await stat(target);
      return { stream: createReadStream(target), size: info.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Removing a file that is already gone is not an error (deletes are retried after commits). */
  async remove(tenantId: number, relative: string): Promise<void> {
    try {
      await unlink(this.resolve(tenantId, relative));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  private resolve(tenantId: number, relative: string): string {
    const root = this.tenantRoot(tenantId);
    const target = path.resolve(root, relative);
    if (!target.startsWith(root + path.sep)) throw new Error(`path escapes the tenant folder: ${relative}`);
    return target;
  }
}

/** A display name without folders or control characters, for Content-Disposition and lists. */
export function safeDisplayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return cleaned || 'arquivo';
}

/** A declared MIME type if it looks like one; otherwise the neutral binary type. */
export function safeMimeType(type: string | undefined): string {
  const t = (type ?? '').trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/.test(t) ? t : 'application/octet-stream';
}
