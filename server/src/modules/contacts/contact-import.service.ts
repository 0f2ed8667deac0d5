import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { SOCKET_EVENTS } from '@shared/events';
import type {
  ContactEventPayload,
  ContactImportAccepted,
  ContactImportDateFormat,
  ContactImportDto,
  ContactImportErrorDto,
  ContactImportProgressPayload,
  ContactImportSummaryDto,
} from '@shared/schemas/contacts';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { readContactFile, UnreadableFileError, type ContactFileKind } from './contact-import.reader';
import { mapHeader, parseImportRow, type ColumnMap, type ImportedContact } from './contact-import.rows';
import { authorizeContactAction, authorizeContactImport } from './contacts.policy';
import { presentContactImport, presentContactImportSummary, type ContactImportRow } from './contacts.presenter';

export const CONTACT_IMPORT_JOB = 'contacts.import';
export const CONTACT_IMPORT_SWEEP_JOB = 'contacts.import.sweep';

/** Rows per INSERT (one multi-row statement built from arrays) and per progress write. */
export const IMPORT_BATCH_SIZE = 2000;
/** A running import writes its heartbeat with every batch; silent this long means its worker died. */
const STALE_AFTER_MS = 2 * 60_000;
/** A queued import older than this was never picked up (enqueue lost with a process): requeue it. */
const QUEUED_GRACE_MS = 30_000;
/** A file that kills its worker this many times fails instead of being retried forever. */
const MAX_ATTEMPTS = 3;
/** Progress events are for a progress bar: at most one per interval (plus the last one). */
const PROGRESS_EVENT_INTERVAL_MS = 1000;

type ImportDeps = Pick<AppDeps, 'dataSource' | 'events' | 'jobs' | 'logger' | 'config'>;

/** The file itself is unusable (no name/number columns, not a spreadsheet): the import fails. */
class ImportFormatError extends Error {}
/** The row stopped being ours (taken over after we were presumed dead, or deleted). */
class ImportLostError extends Error {}

export interface UploadedImportFile {
  path: string;
  originalName: string;
}

interface Batch {
  contacts: ImportedContact[];
  errors: ContactImportErrorDto[];
}

/**
 * Contacts import from a CSV or XLSX file (issue "CRM base", item 1). The upload only stores the
 * file and a contact_imports row and enqueues a job; the job streams the file, checks every
 * row and upserts in batches. The row is the durable state: its counters are the checkpoint,
 * written in the same transaction as each batch, so an import whose worker died resumes after
 * the last committed batch (the sweep requeues it) and counts nothing twice.
 */
export class ContactImportService {
  constructor(private readonly deps: ImportDeps) {}

  /** Per-tenant upload folder under DATA_DIR (never a public folder). */
  uploadDir(tenantId: number): string {
    const dir = path.join(this.deps.config.dataDir, 'uploads', String(tenantId), 'contact-imports');
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  async accept(auth: AuthContext, file: UploadedImportFile, dateFormat: ContactImportDateFormat): Promise<ContactImportAccepted> {
    authorizeContactAction(auth, 'import');
    const id = randomUUID();
    await this.deps.dataSource.query(
      `INSERT INTO contact_imports (id, "tenantId", "userId", status, "fileName", "filePath", "dateFormat")
       VALUES ($1, $2, $3, 'queued', $4, $5, $6)`,
      [id, auth.tenantId, auth.userId, file.originalName.slice(0, 255), file.path, dateFormat],
    );
    // The queued row is what counts: when the job queue is unreachable the import sweep starts it.
    await this.enqueue(id).catch((err) => this.deps.logger.warn({ err, importId: id }, 'could not enqueue a contact import; the sweep will start it'));
    return { importId: id };
  }

  async get(auth: AuthContext, importId: string): Promise<ContactImportDto> {
    const rows: ContactImportRow[] = await this.deps.dataSource.query(`SELECT * FROM contact_imports WHERE id = $1`, [importId]);
    const row = authorizeContactImport(auth, rows[0]);
    const errors: ContactImportErrorDto[] = await this.deps.dataSource.query(
      `SELECT line, reason FROM contact_import_errors WHERE "importId" = $1 AND "tenantId" = $2 ORDER BY line, id`,
      [row.id, auth.tenantId],
    );
    return presentContactImport(row, errors);
  }

  /** The tenant's latest imports, so the screen can show one still running after a reload. */
  async listRecent(auth: AuthContext): Promise<ContactImportSummaryDto[]> {
    authorizeContactAction(auth, 'import');
    const rows: ContactImportRow[] = await this.deps.dataSource.query(
      `SELECT * FROM contact_imports WHERE "tenantId" = $1 ORDER BY "createdAt" DESC LIMIT 20`,
      [auth.tenantId],
    );
    return rows.map(presentContactImportSummary);
  }

  enqueue(importId: string): Promise<string> {
    // The job id dedupes: the sweep and the upload may both enqueue the same import.
    return this.deps.jobs.enqueue(CONTACT_IMPORT_JOB, { importId }, { jobId: `contact-import:${importId}` });
  }

  /** Requeues imports that were never picked up or whose worker went silent. */
  async sweep(): Promise<number> {
    const rows: { id: string }[] = await this.deps.dataSource.query(
      `SELECT id FROM contact_imports
        WHERE (status = 'queued' AND "updatedAt" < now() - make_interval(secs => $1))
           OR (status = 'processing' AND "updatedAt" < now() - make_interval(secs => $2))
        ORDER BY "createdAt" LIMIT 100`,
      [QUEUED_GRACE_MS / 1000, STALE_AFTER_MS / 1000],
    );
    for (const row of rows) await this.enqueue(row.id);
    return rows.length;
  }

  /** The job: claim the row, stream the file from its checkpoint, finish or fail it. */
  async run(importId: string): Promise<void> {
    const row = await this.claim(importId);
    if (!row) return;
    if (row.attempts > MAX_ATTEMPTS) {
      await this.finish(row, `O arquivo não pôde ser processado após ${MAX_ATTEMPTS} tentativas.`);
      return;
    }
    try {
      await this.process(row);
    } catch (err) {
      if (err instanceof ImportLostError) return;
      if (err instanceof ImportFormatError || err instanceof UnreadableFileError) {
        await this.finish(row, err.message);
        return;
      }
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        await this.finish(row, 'O arquivo enviado não foi encontrado no servidor.');
        return;
      }
      // Database or disk trouble: hand the row back so the retry or the sweep resumes it.
      await this.deps.dataSource
        .query(`UPDATE contact_imports SET status = 'queued', "updatedAt" = now() WHERE id = $1 AND status = 'processing'`, [
          row.id,
        ])
        .catch(() => undefined);
      throw err;
    }
  }

  private async claim(importId: string): Promise<ContactImportRow | null> {
    const [rows] = (await this.deps.dataSource.query(
      `UPDATE contact_imports SET status = 'processing', attempts = attempts + 1, "updatedAt" = now()
        WHERE id = $1
          AND (status = 'queued' OR (status = 'processing' AND "updatedAt" < now() - make_interval(secs => $2)))
        RETURNING *`,
      [importId, STALE_AFTER_MS / 1000],
    )) as [ContactImportRow[], number];
    return rows[0] ?? null;
  }

  private async process(row: ContactImportRow): Promise<void> {
    const kind: ContactFileKind = path.extname(row.fileName).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv';
    const size = (await stat(row.filePath)).size;
    const progress = { bytesRead: 0 };
    // Rows already committed before a restart are read again only to rebuild `seen`.
    const alreadyDone = row.processed;
    const seen = new Map<string, number>();
    let columns: ColumnMap | null = null;
    let index = 0;
    let batch: Batch = { contacts: [], errors: [] };
    let lastEvent = 0;
    // One batch is written while the next one is parsed: parsing is CPU here, writing is waiting
    // on the database. Commits stay sequential, so the checkpoint order is the file's order.
    let inflight: Promise<void> = Promise.resolve();

    try {
      for await (const record of readContactFile(row.filePath, kind, progress)) {
        if (!columns) {
          const header = 'cells' in record ? mapHeader(record.cells) : { error: 'O cabeçalho do arquivo está ilegível.' };
          if ('error' in header) throw new ImportFormatError(header.error);
          columns = header.columns;
          continue;
        }
        index++;
        let outcome =
          'cells' in record
            ? parseImportRow(record.line, record.cells, columns, row.dateFormat)
            : { ok: false as const, reason: record.unreadable };
        if (outcome.ok) {
          const first = seen.get(outcome.contact.number);
          if (first !== undefined) outcome = { ok: false, reason: `Número duplicado no arquivo (igual ao da linha ${first})` };
          else seen.set(outcome.contact.number, record.line);
        }
        if (index <= alreadyDone) continue;
        if (outcome.ok) batch.contacts.push(outcome.contact);
        else batch.errors.push({ line: record.line, reason: outcome.reason });
        if (batch.contacts.length + batch.errors.length >= IMPORT_BATCH_SIZE) {
          const now = Date.now();
          const emitProgress = now - lastEvent >= PROGRESS_EVENT_INTERVAL_MS;
          if (emitProgress) lastEvent = now;
          const percent = Math.min(99, Math.floor((progress.bytesRead / Math.max(size, 1)) * 100));
          const full = batch;
          batch = { contacts: [], errors: [] };
          await inflight;
          inflight = this.commit(row, full, percent, { final: false, emitProgress });
          // Awaited before the next commit or at the end; this only keeps Node from calling it unhandled meanwhile.
          inflight.catch(() => undefined);
        }
      }
    } catch (err) {
      // Let the batch being written settle before the caller fails or requeues the import.
      await inflight.catch(() => undefined);
      throw err;
    }
    await inflight;
    if (!columns) throw new ImportFormatError('O arquivo está vazio.');
    await this.commit(row, batch, 100, { final: true, emitProgress: true });
    await unlink(row.filePath).catch(() => undefined);
  }

  /**
   * One batch in one transaction: the upsert, the rejected rows, the counters (checkpoint and
   * heartbeat) and the progress event. Existing contacts (same tenant and normalised number)
   * only get their empty fields filled; a row that changes nothing counts as a duplicate.
   */
  private async commit(
    row: ContactImportRow,
    batch: Batch,
    percent: number,
    opts: { final: boolean; emitProgress: boolean },
  ): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      let created = 0;
      let updated = 0;
      if (batch.contacts.length > 0) {
        const c = batch.contacts;
        const results: { inserted: boolean }[] = await tx.query(UPSERT_SQL, [
          row.tenantId,
          c.map((x) => x.name),
          c.map((x) => x.number),
          c.map((x) => x.email),
          c.map((x) => x.cpfCnpj),
          c.map((x) => x.birthday),
          c.map((x) => x.firstName),
          c.map((x) => x.lastName),
          c.map((x) => x.businessName),
        ]);
        for (const r of results) {
          if (r.inserted) created++;
          else updated++;
        }
      }
      if (batch.errors.length > 0) {
        await tx.query(
          `INSERT INTO contact_import_errors ("importId", "tenantId", line, reason)
           SELECT $1, $2, e.line, e.reason FROM unnest($3::int[], $4::text[]) AS e(line, reason)`,
          [row.id, row.tenantId, batch.errors.map((e) => e.line), batch.errors.map((e) => e.reason)],
        );
      }
      const count = batch.contacts.length + batch.errors.length;
      const [rows] = (await tx.query(
        `UPDATE contact_imports
            SET processed = processed + $2, total = processed + $2,
                created = created + $3, updated = updated + $4, duplicates = duplicates + $5, rejected = rejected + $6,
                percent = $7, "updatedAt" = now(),
                status = CASE WHEN $8 THEN 'done' ELSE status END,
                "finishedAt" = CASE WHEN $8 THEN now() ELSE "finishedAt" END
          WHERE id = $1 AND status = 'processing'
          RETURNING *`,
        [row.id, count, created, updated, batch.contacts.length - created - updated, batch.errors.length, percent, opts.final],
      )) as [ContactImportRow[], number];
      const current = rows[0];
      if (!current) throw new ImportLostError();
      if (opts.emitProgress) await this.emitProgress(emit, current);
      if (opts.final && current.created + current.updated > 0) {
        const payload: ContactEventPayload = { action: 'bulk', source: 'import' };
        await emit(row.tenantId, SOCKET_EVENTS.contactUpdate, payload);
      }
    });
  }

  /** Ends an import that cannot go on; what was committed before stays, with its counts. */
  private async finish(row: ContactImportRow, failureReason: string): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      const [rows] = (await tx.query(
        `UPDATE contact_imports SET status = 'failed', "failureReason" = $2, total = processed, "finishedAt" = now(), "updatedAt" = now()
          WHERE id = $1 AND status = 'processing' RETURNING *`,
        [row.id, failureReason],
      )) as [ContactImportRow[], number];
      if (rows[0]) await this.emitProgress(emit, rows[0]);
    });
    await unlink(row.filePath).catch(() => undefined);
    this.deps.logger.warn({ importId: row.id, tenantId: row.tenantId, failureReason }, 'contact import failed');
  }

  private async emitProgress(emit: Emit, row: ContactImportRow): Promise<void> {
    if (!row.userId) return;
    const payload: ContactImportProgressPayload = presentContactImportSummary(row);
    await emit(row.tenantId, SOCKET_EVENTS.contactImportProgress, payload, { scope: 'user', userId: row.userId });
  }
}

/**
 * The batch upsert: the rows travel as 8 arrays (9 bind parameters whatever the batch size, one
 * plan) and are inserted in one statement. On a number the tenant already has, only empty
 * fields are filled (a name equal to the number, as channels create contacts, counts as empty);
 * the WHERE makes a row that would change nothing a no-op, which RETURNING leaves out, so
 * returned rows are created (xmax = 0) or updated and the missing ones are duplicates.
 */
const FILL_COLUMNS = ['email', 'cpfCnpj', 'firstName', 'lastName', 'businessName'] as const;
const UPSERT_SQL = `
  INSERT INTO contacts ("tenantId", name, number, email, "cpfCnpj", birthday, "firstName", "lastName", "businessName")
  SELECT $1, i.name, i.number, i.email, i."cpfCnpj", i.birthday, i."firstName", i."lastName", i."businessName"
    FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::date[], $7::varchar[], $8::varchar[], $9::varchar[])
      AS i(name, number, email, "cpfCnpj", birthday, "firstName", "lastName", "businessName")
  ON CONFLICT ("tenantId", number) WHERE number IS NOT NULL DO UPDATE SET
    name = CASE WHEN contacts.name = '' OR contacts.name = contacts.number THEN EXCLUDED.name ELSE contacts.name END,
    ${FILL_COLUMNS.map((col) => `"${col}" = COALESCE(NULLIF(contacts."${col}", ''), EXCLUDED."${col}")`).join(',\n    ')},
    birthday = COALESCE(contacts.birthday, EXCLUDED.birthday),
    "updatedAt" = now()
  WHERE ((contacts.name = '' OR contacts.name = contacts.number) AND EXCLUDED.name <> contacts.name)
     OR (contacts.birthday IS NULL AND EXCLUDED.birthday IS NOT NULL)
     ${FILL_COLUMNS.map((col) => `OR (NULLIF(contacts."${col}", '') IS NULL AND EXCLUDED."${col}" IS NOT NULL)`).join('\n     ')}
  RETURNING (xmax = 0) AS inserted`;
