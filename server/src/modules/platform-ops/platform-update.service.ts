import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { UPDATE_FILE_NAME } from '@shared/limits';
import type { PlatformUpdateView, UpdateStepName, UpdateStepView } from '@shared/schemas/platform-ops';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import type { UploadedFile } from '../../http/multipart';
import { cleanOrphanFiles } from './file-clean';
import { publicKeyFingerprint } from './internal-data.service';
import { parseSignature, stagePackage, updatePublicKey, verifyPackageSignature } from './update-package';

/** Updates listed on the screen. */
export const UPDATES_LISTED = 20;

/**
 * /atualizar. An update package is applied only when it is named update_rapido.zip (spec
 * sections 5 and 9) and its detached Ed25519 signature verifies against UPDATE_PUBLIC_KEY.
 * "Applying" never replaces running code: the package is unpacked into a new folder under
 * DATA_DIR/updates/ (for the operator's deploy), then the pending migrations of the running code
 * run and the file clean removes orphaned files. Each step is recorded and answered, refused
 * packages included. One update runs at a time in a process.
 */
export class PlatformUpdateService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: AppDeps) {}

  apply(auth: AuthContext, file: UploadedFile | undefined, signature: UploadedFile | undefined): Promise<PlatformUpdateView> {
    const run = this.queue.then(() => this.applyNow(auth, file, signature));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async list(): Promise<PlatformUpdateView[]> {
    const rows = await this.deps.dataSource.query(
      `SELECT p.*, u.name AS "userName" FROM platform_updates p LEFT JOIN users u ON u.id = p."userId"
        ORDER BY p."createdAt" DESC, p.id DESC LIMIT $1`,
      [UPDATES_LISTED],
    );
    return rows.map(present);
  }

  private async applyNow(
    auth: AuthContext,
    file: UploadedFile | undefined,
    signature: UploadedFile | undefined,
  ): Promise<PlatformUpdateView> {
    if (!file)
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'file', message: `envie o arquivo ${UPDATE_FILE_NAME}` }] });
    const { config, dataSource, logger } = this.deps;
    const sha256 = createHash('sha256').update(file.buffer).digest('hex');
    const steps: UpdateStepView[] = [];
    const record = async (status: PlatformUpdateView['status'], stagedPath: string | null) => {
      const [row] = await dataSource.query(
        `INSERT INTO platform_updates ("userId", "fileName", size, sha256, status, "stagedPath", steps, "finishedAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now()) RETURNING *, (SELECT name FROM users WHERE id = $1) AS "userName"`,
        [auth.userId, file.originalname.slice(0, 255), file.size, sha256, status, stagedPath, JSON.stringify(steps)],
      );
      logger.info({ updateId: row.id, status, sha256, steps }, 'platform update');
      return present(row);
    };
    /** Runs one step; a refusal (AppError) is recorded with the package and answered as the error. */
    const step = async <T>(name: UpdateStepName, work: () => Promise<{ value: T; detail: string }>): Promise<T> => {
      const started = Date.now();
      try {
        const { value, detail } = await work();
        steps.push({ step: name, status: 'ok', detail, durationMs: Date.now() - started });
        return value;
      } catch (err) {
        const detail = err instanceof AppError ? err.message : 'Erro inesperado.';
        steps.push({ step: name, status: 'failed', detail, durationMs: Date.now() - started });
        if (err instanceof AppError) await record('refused', null);
        throw err;
      }
    };

    await step('file', async () => {
      if (file.originalname !== UPDATE_FILE_NAME) throw new AppError('ERR_UPDATE_FILE_NAME');
      return { value: undefined, detail: `${file.originalname}: ${file.size} bytes, SHA-256 ${sha256}` };
    });
    await step('signature', async () => {
      const key = updatePublicKey(config.updatePublicKey);
      verifyPackageSignature(file.buffer, parseSignature(signature?.buffer), key);
      return {
        value: undefined,
        detail: `Assinatura Ed25519 verificada (chave ${publicKeyFingerprint(config.updatePublicKey)}).`,
      };
    });
    const stagedPath = path.posix.join('updates', `${Date.now()}-${randomBytes(4).toString('hex')}`);
    await step('stage', async () => {
      const staged = await stagePackage(file.buffer, path.resolve(config.dataDir, stagedPath));
      return {
        value: undefined,
        detail: `${staged.files} arquivo(s), ${staged.bytes} bytes, em ${stagedPath} (o código em execução não é alterado).`,
      };
    });

    // From here the package is accepted: a failing step marks the update failed, and the answer
    // shows which step failed instead of refusing the package.
    const later = async (name: UpdateStepName, work: () => Promise<string>): Promise<boolean> => {
      const started = Date.now();
      try {
        steps.push({ step: name, status: 'ok', detail: await work(), durationMs: Date.now() - started });
        return true;
      } catch (err) {
        logger.error({ err, step: name }, 'platform update step failed');
        steps.push({
          step: name,
          status: 'failed',
          detail: err instanceof Error ? err.message : String(err),
          durationMs: Date.now() - started,
        });
        return false;
      }
    };
    const migrated = await later('migrations', async () => {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      return ran.length
        ? `${ran.length} migração(ões) aplicada(s): ${ran.map((m) => m.name).join(', ')}.`
        : 'Nenhuma migração pendente.';
    });
    const cleaned =
      migrated &&
      (await later('clean', async () => {
        const clean = await cleanOrphanFiles(dataSource, config.dataDir);
        return `${clean.removedFiles} arquivo(s) removido(s), ${clean.removedBytes} bytes. ${clean.lines.join(' ')}`;
      }));
    return record(cleaned ? 'applied' : 'failed', stagedPath);
  }
}

function present(row: any): PlatformUpdateView {
  return {
    id: row.id,
    fileName: row.fileName,
    size: Number(row.size),
    sha256: String(row.sha256).trim(),
    status: row.status,
    stagedPath: row.stagedPath ?? null,
    steps: row.steps ?? [],
    userName: row.userName ?? null,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: row.finishedAt ? new Date(row.finishedAt).toISOString() : null,
  };
}
