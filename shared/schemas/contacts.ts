import { z } from 'zod';
import { RECORD_ID_MAX, recordId, recordIdSchema } from './record-id';
import { DAY_MONTH_ORDERS, parseCalendarDate, type DayMonthOrder } from '../validation/calendar-date';
import { normalizeContactNumber } from '../validation/contact-number';
import { isValidCpfOrCnpj, normalizeTaxId } from '../validation/cpf-cnpj';

/**
 * Contacts calls (spec sections 3, 5 and 7): request schemas (zod, shared with the React client
 * so the form validates the same way) and the shapes the server answers.
 */

export const CONTACT_PAGE_SIZE_DEFAULT = 20;
export const CONTACT_PAGE_SIZE_MAX = 100;
/** Upload bound of the import file; 100,000 rows of every template column are about 11 MB. */
export const CONTACT_IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const CONTACT_IMPORT_EXTENSIONS = ['.csv', '.xlsx'] as const;
export const CONTACT_IMPORT_DATE_FORMATS = DAY_MONTH_ORDERS;
export type ContactImportDateFormat = DayMonthOrder;
/** Column titles of the import template and of the export (spec section 5), in order. */
export const CONTACT_TEMPLATE_COLUMNS = [
  'Nome',
  'Número',
  'E-mail',
  'CPF',
  'DataNascimento',
  'PrimeiroNome',
  'ÚltimoNome',
  'Empresa',
] as const;
export const CONTACT_EXPORT_FORMATS = ['csv', 'xlsx'] as const;

const MAX_IDS = 100;

/** Optional text: trimmed, and an empty string means "no value" (stored as null). */
const optionalText = (max: number) =>
  z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(max, { error: `no máximo ${max} caracteres` })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

const contactNumber = z
  .union([z.string(), z.number()], { error: 'deve ser um texto' })
  .transform((value, ctx) => {
    if (typeof value === 'string' && value.trim() === '') return null;
    const normalized = normalizeContactNumber(value);
    if (!normalized) {
      ctx.issues.push({ code: 'custom', message: 'número de telefone inválido', input: value });
      return z.NEVER;
    }
    return normalized;
  })
  .nullable()
  .optional();

const email = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .max(254, { error: 'no máximo 254 caracteres' })
  .transform((v) => (v === '' ? null : v.toLowerCase()))
  .refine((v) => v === null || z.email().safeParse(v).success, { error: 'e-mail inválido' })
  .nullable()
  .optional();

/** Stored as digits only; the interface formats it. Typed with or without . - / (spec section 5). */
const cpfCnpj = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .max(30, { error: 'no máximo 30 caracteres' })
  .transform((value, ctx) => {
    if (value === '') return null;
    if (!isValidCpfOrCnpj(value)) {
      ctx.issues.push({ code: 'custom', message: 'CPF/CNPJ inválido', input: value });
      return z.NEVER;
    }
    return normalizeTaxId(value);
  })
  .nullable()
  .optional();

/** dd/MM/yyyy (the interface's format) or ISO yyyy-MM-dd; answered as yyyy-MM-dd. */
const birthday = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .transform((value, ctx) => {
    if (value === '') return null;
    const iso = parseCalendarDate(value, 'dd/MM/yyyy');
    if (!iso) {
      ctx.issues.push({ code: 'custom', message: 'Data inválida', input: value });
      return z.NEVER;
    }
    return iso;
  })
  .nullable()
  .optional();

const idArray = z.array(recordId, { error: 'deve ser uma lista de ids' }).max(MAX_IDS, { error: `no máximo ${MAX_IDS} itens` });

export const ExtraInfoSchema = z
  .array(
    z.object({
      name: z
        .string({ error: 'deve ser um texto' })
        .trim()
        .min(1, { error: 'é obrigatório' })
        .max(100, { error: 'no máximo 100 caracteres' }),
      value: z.string({ error: 'deve ser um texto' }).trim().max(1000, { error: 'no máximo 1000 caracteres' }),
    }),
    { error: 'deve ser uma lista de {name, value}' },
  )
  .max(50, { error: 'no máximo 50 itens' });

const contactFields = {
  name: z
    .string({ error: 'Nome é obrigatório' })
    .trim()
    .min(1, { error: 'Nome é obrigatório' })
    .max(200, { error: 'no máximo 200 caracteres' }),
  number: contactNumber,
  email,
  cpfCnpj,
  birthday,
  firstName: optionalText(120),
  lastName: optionalText(120),
  businessName: optionalText(200),
  messengerId: optionalText(120),
  instagramId: optionalText(120),
  hubWhatsappId: optionalText(120),
  telegramId: optionalText(120),
  kanbanId: recordId.nullable().optional(),
  extraInfo: ExtraInfoSchema.optional(),
  blockContact: z.boolean({ error: 'deve ser verdadeiro ou falso' }).optional(),
  blockChatbot: z.boolean({ error: 'deve ser verdadeiro ou falso' }).optional(),
  tags: idArray.optional(),
  wallets: idArray.optional(),
};

const CHANNEL_IDS = ['messengerId', 'instagramId', 'hubWhatsappId', 'telegramId'] as const;

/** A contact is reachable somewhere: a phone number or an id on another channel. */
export const CreateContactSchema = z.object(contactFields).superRefine((c, ctx) => {
  if (!c.number && !CHANNEL_IDS.some((k) => c[k])) {
    ctx.addIssue({ code: 'custom', path: ['number'], message: 'Número é obrigatório' });
  }
});

/** Every field optional: what is absent stays as it is; null clears an optional field. */
export const UpdateContactSchema = z.object({ ...contactFields, name: contactFields.name.optional() });

export const ContactTagsSchema = z.object({ tags: idArray });
export const ContactWalletsSchema = z.object({ wallets: idArray });
export const BlockContactSchema = z.object({ blockContact: z.boolean({ error: 'deve ser verdadeiro ou falso' }) });
export const BlockChatbotSchema = z.object({ blockChatbot: z.boolean({ error: 'deve ser verdadeiro ou falso' }) });

/** Ids in a query string: `tags=1,2`, repeated `tags=1&tags=2`, or a JSON array. */
const idListParam = z.preprocess(
  (value) => {
    if (value === undefined || value === '') return undefined;
    const parts = Array.isArray(value) ? value : [value];
    return parts.flatMap((p) => {
      if (typeof p !== 'string') return [p];
      const text = p.trim();
      if (text.startsWith('[')) {
        try {
          return JSON.parse(text) as unknown[];
        } catch {
          return [text];
        }
      }
      return text.split(',').filter((s) => s.trim() !== '');
    });
  },
  z
    .array(recordIdSchema(`deve ser uma lista de ids entre 1 e ${RECORD_ID_MAX}`))
    .max(MAX_IDS, { error: `no máximo ${MAX_IDS} itens` })
    .optional(),
);

const ContactFilterFields = {
  /** Ignored below CONTACT_SEARCH_MIN_CHARS characters (spec section 9). */
  searchParam: z.string({ error: 'deve ser um texto' }).max(200, { error: 'no máximo 200 caracteres' }).optional(),
  tags: idListParam,
  wallets: idListParam,
  kanbanId: recordId.optional(),
};

export const ContactListQuerySchema = z.object({
  ...ContactFilterFields,
  pageNumber: z.coerce
    .number({ error: 'deve ser um número inteiro positivo' })
    .int({ error: 'deve ser um número inteiro positivo' })
    .min(1, { error: 'deve ser um número inteiro positivo' })
    // Bounded so the page offset stays a number PostgreSQL reads.
    .max(100_000, { error: 'pageNumber grande demais' })
    .default(1),
  pageSize: z.coerce
    .number({ error: `deve ser um número entre 1 e ${CONTACT_PAGE_SIZE_MAX}` })
    .int({ error: `deve ser um número entre 1 e ${CONTACT_PAGE_SIZE_MAX}` })
    .min(1, { error: `deve ser um número entre 1 e ${CONTACT_PAGE_SIZE_MAX}` })
    .max(CONTACT_PAGE_SIZE_MAX, { error: `deve ser um número entre 1 e ${CONTACT_PAGE_SIZE_MAX}` })
    .default(CONTACT_PAGE_SIZE_DEFAULT),
});

export const ContactExportSchema = z.object({
  ...ContactFilterFields,
  format: z.enum(CONTACT_EXPORT_FORMATS, { error: 'deve ser csv ou xlsx' }).default('xlsx'),
});

export const ContactImportFieldsSchema = z.object({
  dateFormat: z.enum(CONTACT_IMPORT_DATE_FORMATS, { error: 'deve ser dd/MM/yyyy ou MM/dd/yyyy' }).default('dd/MM/yyyy'),
});

export const ContactImportTemplateQuerySchema = z.object({
  format: z.enum(CONTACT_EXPORT_FORMATS, { error: 'deve ser csv ou xlsx' }).default('csv'),
});

export type CreateContactInput = z.output<typeof CreateContactSchema>;
export type UpdateContactInput = z.output<typeof UpdateContactSchema>;
export type ContactFilters = Pick<z.output<typeof ContactListQuerySchema>, 'searchParam' | 'tags' | 'wallets' | 'kanbanId'>;
export type ContactListQuery = z.output<typeof ContactListQuerySchema>;
export type ContactExportInput = z.output<typeof ContactExportSchema>;
export type ExtraInfo = z.output<typeof ExtraInfoSchema>;

export interface ContactTagDto {
  id: number;
  name: string;
  color: string;
}

export interface ContactWalletDto {
  id: number;
  name: string;
}

/** The one shape a contact leaves the server in. `birthday` is yyyy-MM-dd; `number` is digits with country code. */
export interface ContactDto {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  cpfCnpj: string | null;
  birthday: string | null;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  messengerId: string | null;
  instagramId: string | null;
  hubWhatsappId: string | null;
  telegramId: string | null;
  profilePicUrl: string | null;
  isGroup: boolean;
  kanbanId: number | null;
  extraInfo: ExtraInfo;
  blockContact: boolean;
  blockChatbot: boolean;
  tags: ContactTagDto[];
  wallets: ContactWalletDto[];
  createdAt: string;
  updatedAt: string;
}

export interface ContactListResponse {
  contacts: ContactDto[];
  /** Contacts matching the filters: exact up to CONTACT_COUNT_EXACT_MAX, else the planner's estimate. */
  count: number;
  /** True when `count` is an estimate (more than CONTACT_COUNT_EXACT_MAX matches). */
  countEstimated: boolean;
  /** A next page exists (always exact). */
  hasMore: boolean;
}

export type ContactImportStatus = 'queued' | 'processing' | 'done' | 'failed';

export interface ContactImportErrorDto {
  /** Line of the file (the header is line 1), as a spreadsheet shows it. */
  line: number;
  reason: string;
}

/**
 * State of one import. `total` counts the data rows read so far and is final once `status` is
 * done; then total = created + updated + duplicates + rejected. `percent` is the share of the
 * file read.
 */
export interface ContactImportDto {
  id: string;
  status: ContactImportStatus;
  fileName: string;
  dateFormat: ContactImportDateFormat;
  total: number;
  processed: number;
  created: number;
  updated: number;
  duplicates: number;
  rejected: number;
  percent: number;
  failureReason: string | null;
  createdAt: string;
  finishedAt: string | null;
  errors: ContactImportErrorDto[];
}

export type ContactImportSummaryDto = Omit<ContactImportDto, 'errors'>;

export interface ContactImportAccepted {
  importId: string;
}

export interface RemoveDuplicatesResponse {
  /** Contacts that absorbed at least one duplicate. */
  merged: number;
  /** Duplicate contacts deleted after their tickets, messages, tags, wallets and channel ids moved. */
  removed: number;
  /** Stored numbers rewritten in their normalised form. */
  normalized: number;
  /** Groups left alone: two of their contacts have an open or pending ticket on the same channel. */
  skipped: number;
}

/**
 * `contact:update` payload. `bulk` means many contacts changed at once (an import finished, a
 * duplicate merge): refetch the list.
 */
export type ContactEventPayload =
  | { action: 'create' | 'update'; contact: ContactDto }
  | { action: 'delete'; contactId: number }
  | { action: 'bulk'; source: 'import' | 'removeDuplicates' | 'sync' | 'bulkSend'; contactIds?: number[] };

/** `contactImport:progress` payload, sent to the importing user only. */
export type ContactImportProgressPayload = ContactImportSummaryDto;
