import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file only its owner can read (0600), through a temporary file and a rename: a crash
 * mid-write leaves the previous file, never a truncated one. The folder is created if missing
 * (with `folderMode` when given). Used for the refresh token and the cache key, both stored
 * encrypted by the OS keychain (safeStorage).
 */
export async function writePrivateFile(filePath: string, bytes: Buffer, folderMode?: number): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true, ...(folderMode === undefined ? {} : { mode: folderMode }) });
  const temporary = `${filePath}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, bytes, { mode: 0o600 });
    await rename(temporary, filePath);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The file's bytes, or null when there is no such file (any other error is thrown). */
export async function readFileIfPresent(filePath: string): Promise<Buffer | null> {
  try {
    return await readFile(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
