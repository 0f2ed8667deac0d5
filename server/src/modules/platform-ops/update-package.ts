import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import JSZip from 'jszip';
import { AppError } from '../../core/app-error';

/** Limits of what a package may unpack to (a zip bomb stops here, not in the disk). */
export const UPDATE_MAX_ENTRIES = 10_000;
export const UPDATE_MAX_UNPACKED_BYTES = 500 * 1024 * 1024;

const ED25519_SIGNATURE_BYTES = 64;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The configured update key, which must be an Ed25519 public key. */
export function updatePublicKey(pem: string | undefined): KeyObject {
  if (!pem) throw new AppError('ERR_UPDATE_NO_PUBLIC_KEY');
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new AppError('ERR_UPDATE_NO_PUBLIC_KEY', {
      message: 'A chave pública de atualização (UPDATE_PUBLIC_KEY) não pôde ser lida: nenhuma atualização é aplicada.',
    });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new AppError('ERR_UPDATE_NO_PUBLIC_KEY', {
      message: 'A chave pública de atualização (UPDATE_PUBLIC_KEY) não é uma chave Ed25519: nenhuma atualização é aplicada.',
    });
  }
  return key;
}

/** A detached signature file holds the 64 signature bytes, raw or as base64 text. */
export function parseSignature(file: Buffer | undefined): Buffer {
  if (!file || file.length === 0)
    throw new AppError('ERR_UPDATE_SIGNATURE', {
      message: 'Envie também a assinatura do arquivo (update_rapido.zip.sig): atualizações sem assinatura não são aplicadas.',
    });
  if (file.length === ED25519_SIGNATURE_BYTES) return file;
  const text = file.toString('utf8').trim();
  const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (decoded.length !== ED25519_SIGNATURE_BYTES) throw new AppError('ERR_UPDATE_SIGNATURE');
  return decoded;
}

export function verifyPackageSignature(pkg: Buffer, signature: Buffer, key: KeyObject): void {
  if (!verify(null, pkg, key, signature)) throw new AppError('ERR_UPDATE_SIGNATURE');
}

interface Entry {
  relative: string;
  dir: boolean;
  file: JSZip.JSZipObject;
}

/**
 * The entry's path inside the staging folder, or a refusal: no absolute path (`/x`, `C:\x`,
 * `\\server`), no `..` segment, no NUL, no symbolic link. JSZip already rewrites `..` in
 * `name`; the name as written in the archive (`unsafeOriginalName`) is the one judged.
 */
export function safeEntryPath(rawName: string, unixPermissions: number | null | undefined): string {
  const refuse = () => {
    throw new AppError('ERR_UPDATE_UNSAFE_ENTRY', {
      fields: [{ path: 'file', message: `entrada insegura: ${rawName.slice(0, 200)}` }],
    });
  };
  if (!rawName || rawName.includes('\0')) refuse();
  if (unixPermissions != null && (unixPermissions & S_IFMT) === S_IFLNK) refuse();
  const name = rawName.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) refuse();
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '..')) refuse();
  return segments.join('/');
}

async function readEntries(pkg: Buffer): Promise<Entry[]> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(pkg, { createFolders: false, checkCRC32: true });
  } catch {
    throw new AppError('ERR_UPDATE_INVALID_FILE');
  }
  const files = Object.values(zip.files);
  if (files.length === 0)
    throw new AppError('ERR_UPDATE_INVALID_FILE', { message: 'Arquivo de atualização inválido: o zip está vazio.' });
  if (files.length > UPDATE_MAX_ENTRIES) {
    throw new AppError('ERR_UPDATE_INVALID_FILE', {
      message: `Arquivo de atualização inválido: mais de ${UPDATE_MAX_ENTRIES} entradas.`,
    });
  }
  // Every entry is judged before anything is written: a refused package leaves no file behind.
  return files.map((file) => {
    const raw = (file as JSZip.JSZipObject & { unsafeOriginalName?: string }).unsafeOriginalName ?? file.name;
    const permissions = typeof file.unixPermissions === 'number' ? file.unixPermissions : null;
    return { relative: safeEntryPath(raw, permissions), dir: file.dir, file };
  });
}

/**
 * Unpacks a verified package into `stagingDir` (a new folder), never outside it, and never over
 * running code: the staged files wait there for the operator. Answers the count of files and bytes.
 */
export async function stagePackage(pkg: Buffer, stagingDir: string): Promise<{ files: number; bytes: number }> {
  const entries = await readEntries(pkg);
  const root = path.resolve(stagingDir);
  await mkdir(root, { recursive: true });
  let bytes = 0;
  let files = 0;
  try {
    for (const entry of entries) {
      const target = path.resolve(root, entry.relative);
      if (!target.startsWith(root + path.sep)) throw new AppError('ERR_UPDATE_UNSAFE_ENTRY');
      if (entry.dir) {
        await mkdir(target, { recursive: true });
        continue;
      }
      await mkdir(path.dirname(target), { recursive: true });
      const limit = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > UPDATE_MAX_UNPACKED_BYTES) {
            done(
              new AppError('ERR_UPDATE_INVALID_FILE', {
                message: 'Arquivo de atualização inválido: o conteúdo descompactado passa de 500 MB.',
              }),
            );
            return;
          }
          done(null, chunk);
        },
      });
      await pipeline(entry.file.nodeStream('nodebuffer'), limit, createWriteStream(target, { flags: 'wx', mode: 0o640 }));
      files += 1;
    }
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_UPDATE_INVALID_FILE');
  }
  return { files, bytes };
}
