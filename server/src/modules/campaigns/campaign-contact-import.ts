import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SOCKET_EVENTS } from '@shared/events';
import {
  CAMPAIGN_IMPORT_MAX_ROWS,
  CAMPAIGN_IMPORT_REPORTED_LINES,
  isCampaignEditable,
  type ImportCampaignContactsAnswer,
} from '@shared/schemas/campaigns';
import type { ContactEventPayload } from '@shared/schemas/contacts';
import { normalizeContactNumber } from '@shared/validation/contact-number';
import { hasUnsafeText, UNSAFE_TEXT_MESSAGE } from '@shared/validation/safe-text';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { readContactFile, UnreadableFileError, type CellValue } from '../contacts/contact-import.reader';
import { headerColumns } from '../contacts/contact-import.rows';
import type { UploadedImportFile } from '../contacts/contact-import.service';
import { authorizeCampaigns } from './campaigns.policy';
import { emitCampaign, loadCampaign } from './campaigns.service';

const NAME_MAX = 200;
const NUMBER_MAX = 40;

interface FileContact {
  line: number;
  name: string | null;
  number: string;
}

interface ReadResult {
  rows: number;
  contacts: FileContact[];
  duplicates: number;
  invalid: { line: number; reason: string }[];
}

const fileError = (message: string) => new AppError('ERR_VALIDATION', { fields: [{ path: 'file', message }] });

const cellText = (cell: CellValue | undefined): string => {
  if (cell === null || cell === undefined || cell instanceof Date) return '';
  // A number typed in a spreadsheet cell comes as a number: its digits, never 5.5119e+12.
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell.toFixed(0) : String(cell);
  return String(cell).trim();
};

/**
 * Linking contacts to a campaign from a CSV or XLSX file (POST /campaigns/contacts/{campaignId}/import,
 * multipart `file`): a header with a number column (number, número, telefone, celular, whatsapp;
 * the contacts import's titles) and optionally a name column. Each number is normalised as the
 * contacts screen does; the tenant's contact with that number is linked, an unknown number is
 * created as a contact (named by the name column, else the number) and linked. Lines without a
 * valid number, with unsafe text or naming a group are refused and reported back (the count, the
 * first CAMPAIGN_IMPORT_REPORTED_LINES with their reasons). Small files only
 * (CAMPAIGN_IMPORT_MAX_BYTES, CAMPAIGN_IMPORT_MAX_ROWS): read at once, written in one transaction,
 * and only while the campaign is pending or canceled, as every link.
 */
export class CampaignContactImport {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'config'>) {}

  /** Per-tenant folder for the file while it is read (removed right after). */
  uploadDir(tenantId: number): string {
    const dir = path.join(this.deps.config.dataDir, 'uploads', String(tenantId), 'campaign-imports');
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** The checks that need no file (404 another tenant's campaign, 400 not editable): before the upload is read. */
  async precheck(auth: AuthContext, campaignId: number): Promise<void> {
    authorizeCampaigns(auth);
    const campaign = await loadCampaign(this.deps.dataSource, auth.tenantId, campaignId);
    if (!isCampaignEditable(campaign.status)) throw new AppError('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
  }

  async import(auth: AuthContext, campaignId: number, file: UploadedImportFile): Promise<ImportCampaignContactsAnswer> {
    authorizeCampaigns(auth);
    const read = await readCampaignFile(file);
    return this.deps.events.transaction(async (tx, emit) => {
      const campaign = await loadCampaign(tx, auth.tenantId, campaignId, true);
      if (!isCampaignEditable(campaign.status)) throw new AppError('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
      const invalid = [...read.invalid];
      let created = 0;
      let added = 0;
      if (read.contacts.length > 0) {
        // In number order: two imports (or an import and the inbound pipeline) lock contacts alike.
        const sorted = [...read.contacts].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
        const rows = (await tx.query(
          `INSERT INTO contacts ("tenantId", name, number)
           SELECT $1, x.name, x.number FROM unnest($2::varchar[], $3::varchar[]) WITH ORDINALITY AS x(name, number, ord) ORDER BY x.ord
           ON CONFLICT ("tenantId", number) WHERE number IS NOT NULL DO UPDATE SET "updatedAt" = contacts."updatedAt"
           RETURNING id, number, "isGroup", (xmax = 0) AS created`,
          [auth.tenantId, sorted.map((c) => c.name ?? c.number), sorted.map((c) => c.number)],
        )) as { id: number; number: string; isGroup: boolean; created: boolean }[];
        const lineOf = new Map(sorted.map((c) => [c.number, c.line]));
        const ids: number[] = [];
        for (const row of rows) {
          if (row.created) created++;
          // Groups are never linked (the link route refuses them too).
          if (row.isGroup) invalid.push({ line: lineOf.get(row.number) ?? 0, reason: `Número de um grupo: ${row.number}` });
          else ids.push(row.id);
        }
        const [linked] = (await tx.query(
          `WITH added AS (
             INSERT INTO campaign_contacts ("campaignId", "tenantId", "contactId")
             SELECT $1, $2, x.id FROM unnest($3::int[]) AS x(id) ORDER BY x.id
             ON CONFLICT ("campaignId", "contactId") DO NOTHING
             RETURNING 1
           ) SELECT count(*)::int AS n FROM added`,
          [campaignId, auth.tenantId, ids],
        )) as { n: number }[];
        added = linked?.n ?? 0;
      }
      await tx.query(`UPDATE campaigns SET "updatedAt" = now() WHERE id = $1`, [campaignId]);
      const dto = await emitCampaign(tx, emit, auth.tenantId, campaignId, 'update');
      if (created > 0) {
        const payload: ContactEventPayload = { action: 'bulk', source: 'import' };
        await emit(auth.tenantId, SOCKET_EVENTS.contactUpdate, payload);
      }
      invalid.sort((a, b) => a.line - b.line);
      return {
        added,
        counts: dto.counts,
        rows: read.rows,
        created,
        duplicates: read.duplicates,
        invalid: { count: invalid.length, lines: invalid.slice(0, CAMPAIGN_IMPORT_REPORTED_LINES) },
      };
    });
  }
}

/** The file's numbers, checked; a file that cannot be used at all is a 400. */
async function readCampaignFile(file: UploadedImportFile): Promise<ReadResult> {
  const kind = path.extname(file.originalName).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv';
  const result: ReadResult = { rows: 0, contacts: [], duplicates: 0, invalid: [] };
  const seen = new Set<string>();
  let columns: { number: number; name?: number } | null = null;
  try {
    for await (const record of readContactFile(file.path, kind, { bytesRead: 0 })) {
      if ('unreadable' in record) {
        if (!columns) throw fileError('O cabeçalho do arquivo não pôde ser lido.');
        result.rows++;
        result.invalid.push({ line: record.line, reason: record.unreadable });
        continue;
      }
      if (!columns) {
        const found = headerColumns(record.cells);
        if (found.number === undefined) {
          throw fileError('O arquivo precisa de uma coluna number (ou Número, Telefone, Celular, WhatsApp) na primeira linha.');
        }
        columns = { number: found.number, name: found.name };
        continue;
      }
      if (++result.rows > CAMPAIGN_IMPORT_MAX_ROWS) {
        throw fileError(`O arquivo deve ter no máximo ${CAMPAIGN_IMPORT_MAX_ROWS} linhas de contatos.`);
      }
      const rawNumber = cellText(record.cells[columns.number]);
      const name = columns.name === undefined ? '' : cellText(record.cells[columns.name]);
      const reject = (reason: string) => result.invalid.push({ line: record.line, reason });
      if (hasUnsafeText(rawNumber) || hasUnsafeText(name)) {
        reject(`Texto ${UNSAFE_TEXT_MESSAGE}`);
        continue;
      }
      if (!rawNumber) {
        reject('Número ausente');
        continue;
      }
      const number = rawNumber.length <= NUMBER_MAX ? normalizeContactNumber(rawNumber) : null;
      if (!number) {
        reject(`Número inválido: ${rawNumber.slice(0, NUMBER_MAX)}`);
        continue;
      }
      if (name.length > NAME_MAX) {
        reject(`Nome com mais de ${NAME_MAX} caracteres`);
        continue;
      }
      if (seen.has(number)) {
        result.duplicates++;
        continue;
      }
      seen.add(number);
      result.contacts.push({ line: record.line, name: name || null, number });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // Only the file is read here: whatever the reader could not make sense of is the file's fault.
    throw fileError(err instanceof UnreadableFileError ? err.message : 'Não foi possível ler o arquivo (.csv ou .xlsx).');
  }
  if (!columns) throw fileError('O arquivo está vazio.');
  return result;
}
