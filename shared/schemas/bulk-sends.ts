import { z } from 'zod';
import { normalizeContactNumber } from '../validation/contact-number';
import {
  CAMPAIGN_DELAY_MAX,
  CAMPAIGN_MESSAGE_MAX,
  templateLanguageField,
  templateNameField,
  templateVariablesField,
  type CampaignComplaintWarning,
  type CampaignTemplateVariables,
  type CampaignContactStatus,
  type CampaignCounts,
  type CampaignStatus,
} from './campaigns';
import { recordIdSchema } from './record-id';

/**
 * Bulk sends (screens /massa/texto, /massa/textovariavel, /massa/template,
 * /massa/template-variavel, /massa/sms; spec section 5 "Bulk send"). The server validates with
 * these schemas and the form reuses them (react-hook-form + zodResolver); the destination
 * parser is shared too, so the confirmation shows the same valid and invalid lines the server
 * will report. A bulk send is sent by the campaign sender (docs/architecture.md "Bulk sends").
 */

/** The screens, by their route names. */
export const BULK_KINDS = ['texto', 'textovariavel', 'template', 'template-variavel', 'sms'] as const;
export type BulkKind = (typeof BULK_KINDS)[number];
export const isBulkKind = (v: unknown): v is BulkKind => typeof v === 'string' && (BULK_KINDS as readonly string[]).includes(v);

/** Lines are `number,var1,var2,...` for these kinds. */
export const bulkKindHasVariables = (kind: BulkKind): boolean => kind === 'textovariavel' || kind === 'template-variavel';
export const bulkKindIsTemplate = (kind: BulkKind): boolean => kind === 'template' || kind === 'template-variavel';

export const BULK_DESTINATIONS_MAX = 10_000;
/** The destinations text as typed (10,000 lines with a few variables each fit; under the 1 MB body limit). */
export const BULK_DESTINATIONS_TEXT_MAX = 900_000;
export const BULK_DELAY_MIN_DEFAULT = 5;
export const BULK_DELAY_MAX_DEFAULT = 15;
export const BULK_MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
export type BulkMediaType = (typeof BULK_MEDIA_TYPES)[number];
export const BULK_RESULTS_PAGE_SIZE_MAX = 500;

export const BULK_CHANNEL_REQUIRED = 'Conexão é obrigatório';
export const BULK_DESTINATIONS_REQUIRED = 'Destinos é obrigatório';
export const BULK_MESSAGE_OR_MEDIA_REQUIRED = 'Informe uma mensagem ou uma mídia';
export const BULK_MESSAGE_REQUIRED = 'Mensagem é obrigatório';
export const BULK_TEMPLATE_REQUIRED = 'Modelo é obrigatório';
export const BULK_MIN_DELAY_INVALID = 'Tempo mínimo inválido';
export const BULK_MAX_DELAY_INVALID = 'Tempo máximo inválido';
export const BULK_MAX_NOT_GREATER = 'O tempo máximo deve ser maior que o mínimo';
export const BULK_AUDIO_OGG = 'A URL do áudio deve terminar em .ogg';
export const BULK_URL_INVALID = 'URL inválida (use http:// ou https://)';
export const BULK_LINE_FORMAT = 'a linha deve ter o formato numero,var1,var2';
export const BULK_NUMBER_INVALID = 'número inválido';

const emptyToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

const seconds = (message: string, fallback: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined || v === null ? fallback : v),
    z.coerce
      .number({ error: message })
      .refine((n) => Number.isFinite(n), { error: message })
      .pipe(
        z
          .number()
          .int({ error: `${message}: use segundos inteiros` })
          .min(0, { error: `${message}: não pode ser negativo` })
          .max(CAMPAIGN_DELAY_MAX, { error: `${message}: no máximo ${CAMPAIGN_DELAY_MAX} segundos` }),
      ),
  );

const AUDIO_EXTENSIONS = ['.ogg', '.oga', '.opus', '.mp3', '.wav', '.m4a', '.aac', '.amr', '.wma', '.flac'];

/** The lowercase extension of a URL's path ('.ogg'), or ''. */
export function urlExtension(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? '';
  }
  const match = /\.[a-z0-9]{1,5}$/i.exec(path);
  return match ? match[0].toLowerCase() : '';
}

/** The media type a URL is sent as: the chosen one, else by its extension (document when unknown). */
export function bulkMediaTypeOf(url: string, chosen?: BulkMediaType | null): BulkMediaType {
  if (chosen) return chosen;
  const ext = urlExtension(url);
  if (AUDIO_EXTENSIONS.includes(ext)) return 'audio';
  if (['.jpg', '.jpeg', '.png', '.webp', '.gif'].includes(ext)) return 'image';
  if (['.mp4', '.3gp', '.mov'].includes(ext)) return 'video';
  return 'document';
}

/** Spec section 5: an audio URL must be .ogg. */
export const isAudioUrlAccepted = (url: string, chosen?: BulkMediaType | null): boolean =>
  bulkMediaTypeOf(url, chosen) !== 'audio' || urlExtension(url) === '.ogg';

const NUMBERED = /\{\{\s*(\d+)\s*\}\}/g;

/** The highest {{n}} a text uses (0 when none). */
export function highestLineVariable(text: string | null | undefined): number {
  let max = 0;
  for (const m of (text ?? '').matchAll(NUMBERED)) max = Math.max(max, Number(m[1]));
  return max;
}

/** {{1}}, {{2}} ... replaced by the destination's values (an index it has not stays as typed). */
export function fillLineVariables(text: string, values: readonly string[] | null | undefined): string {
  if (!values || values.length === 0) return text;
  return text.replace(NUMBERED, (whole, n: string) => values[Number(n) - 1] ?? whole);
}

/**
 * The values a `template-variavel` line must have: one per body variable of the template ({{1}}
 * is the line's first value ...), or more when a header or button text set in the form uses a
 * higher {{n}} of the line.
 */
export function bulkTemplateLineVariables(bodyVariables: number, fixed: Partial<Pick<CampaignTemplateVariables, 'header' | 'buttons'>>): number {
  return Math.max(bodyVariables, ...[...(fixed.header ?? []), ...(fixed.buttons ?? [])].map(highestLineVariable));
}

export interface BulkDestination {
  /** 1-based line of the destinations text. */
  line: number;
  /** Canonical number (see normalizeContactNumber). */
  number: string;
  variables: string[];
}

export interface BulkInvalidLine {
  line: number;
  text: string;
  reason: string;
}

export interface ParsedBulkDestinations {
  destinations: BulkDestination[];
  invalid: BulkInvalidLine[];
}

/**
 * The destinations text, one per line: a number, or for the *variavel* kinds
 * `number,var1,var2,...` (`variablesNeeded`: the highest {{n}} the message or template uses).
 * Blank lines are skipped; a bad number, a line without the variables it needs, an empty value
 * or a number already listed is an invalid line with its reason (the rest still goes out).
 */
export function parseBulkDestinations(
  text: string,
  opts: { withVariables: boolean; variablesNeeded?: number },
): ParsedBulkDestinations {
  const destinations: BulkDestination[] = [];
  const invalid: BulkInvalidLine[] = [];
  const seen = new Map<string, number>();
  const needed = opts.variablesNeeded ?? 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw) continue;
    const line = i + 1;
    const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
    const parts = opts.withVariables ? raw.split(',').map((p) => p.trim()) : [raw];
    const number = normalizeContactNumber(parts[0]);
    const variables = parts.slice(1);
    let reason: string | null = null;
    if (!number) reason = BULK_NUMBER_INVALID;
    else if (opts.withVariables && variables.length === 0) reason = BULK_LINE_FORMAT;
    else if (opts.withVariables && variables.length < needed) reason = `faltam variáveis: a mensagem usa {{${needed}}} e a linha tem ${variables.length}`;
    else if (variables.some((v, idx) => idx < Math.max(needed, 1) && v === '')) reason = 'variável vazia';
    else if (seen.has(number)) reason = `número repetido (linha ${seen.get(number)})`;
    if (reason || !number) {
      invalid.push({ line, text: shown, reason: reason ?? BULK_NUMBER_INVALID });
      continue;
    }
    seen.set(number, line);
    destinations.push({ line, number, variables });
  }
  return { destinations, invalid };
}

/** Non-blank lines of the destinations text. */
export const countDestinationLines = (text: string): number => text.split(/\r?\n/).filter((l) => l.trim() !== '').length;

/**
 * POST /bulk-sends: create a bulk send and start it. The form holds the same fields (with
 * `kind` fixed by the screen).
 */
export const BulkSendSchema = z
  .object({
    kind: z.enum(BULK_KINDS, { error: `deve ser um de ${BULK_KINDS.join(', ')}` }),
    channelId: recordIdSchema(BULK_CHANNEL_REQUIRED).optional(),
    destinations: z
      .string({ error: BULK_DESTINATIONS_REQUIRED })
      .trim()
      .min(1, { error: BULK_DESTINATIONS_REQUIRED })
      .max(BULK_DESTINATIONS_TEXT_MAX, { error: `no máximo ${BULK_DESTINATIONS_TEXT_MAX} caracteres` })
      .refine((t) => countDestinationLines(t) <= BULK_DESTINATIONS_MAX, { error: `no máximo ${BULK_DESTINATIONS_MAX} destinos por envio` }),
    message: z
      .preprocess(
        emptyToNull,
        z
          .string({ error: 'deve ser um texto' })
          .trim()
          .max(CAMPAIGN_MESSAGE_MAX, { error: `no máximo ${CAMPAIGN_MESSAGE_MAX} caracteres` })
          .nullable(),
      )
      .optional(),
    mediaUrl: z
      .preprocess(
        emptyToNull,
        z
          .string({ error: 'deve ser um texto' })
          .trim()
          .max(2000, { error: 'no máximo 2000 caracteres' })
          .refine(
            (v) => {
              try {
                const u = new URL(v);
                return u.protocol === 'http:' || u.protocol === 'https:';
              } catch {
                return false;
              }
            },
            { error: BULK_URL_INVALID },
          )
          .nullable(),
      )
      .optional(),
    mediaType: z
      .preprocess(emptyToNull, z.enum(BULK_MEDIA_TYPES, { error: `deve ser um de ${BULK_MEDIA_TYPES.join(', ')}` }).nullable())
      .optional(),
    minDelay: seconds(BULK_MIN_DELAY_INVALID, BULK_DELAY_MIN_DEFAULT),
    maxDelay: seconds(BULK_MAX_DELAY_INVALID, BULK_DELAY_MAX_DEFAULT),
    templateName: templateNameField,
    templateLanguage: templateLanguageField,
    /**
     * The template's variables by part (may use {{name}} ...). Kind `template`: header, body and
     * buttons from the form. Kind `template-variavel`: the lines fill the body ({{1}} is the
     * line's first value ...), header and buttons are the form's, the same for every line.
     */
    templateVariables: templateVariablesField,
  })
  .superRefine(
    (value, ctx) => {
      if (typeof value !== 'object' || value === null) return;
      const v = value as Record<string, unknown>;
      const kind = isBulkKind(v.kind) ? v.kind : null;
      if (kind !== 'sms' && v.channelId === undefined) ctx.addIssue({ code: 'custom', path: ['channelId'], message: BULK_CHANNEL_REQUIRED });
      const finite = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
      if (finite(v.minDelay) && finite(v.maxDelay) && !(v.maxDelay > v.minDelay)) {
        ctx.addIssue({ code: 'custom', path: ['maxDelay'], message: BULK_MAX_NOT_GREATER });
      }
      const hasText = typeof v.message === 'string' && v.message.trim() !== '';
      const hasMedia = typeof v.mediaUrl === 'string' && v.mediaUrl !== '';
      if (kind && bulkKindIsTemplate(kind)) {
        if (typeof v.templateName !== 'string' || !v.templateName) {
          ctx.addIssue({ code: 'custom', path: ['templateName'], message: BULK_TEMPLATE_REQUIRED });
        } else if (typeof v.templateLanguage !== 'string' || !v.templateLanguage) {
          ctx.addIssue({ code: 'custom', path: ['templateLanguage'], message: 'Idioma do modelo é obrigatório' });
        }
      } else if (kind === 'sms') {
        if (!hasText) ctx.addIssue({ code: 'custom', path: ['message'], message: BULK_MESSAGE_REQUIRED });
      } else if (kind && !hasText && !hasMedia) {
        ctx.addIssue({ code: 'custom', path: ['message'], message: BULK_MESSAGE_OR_MEDIA_REQUIRED });
      }
      if (hasMedia && !isAudioUrlAccepted(v.mediaUrl as string, (v.mediaType as BulkMediaType | null | undefined) ?? null)) {
        ctx.addIssue({ code: 'custom', path: ['mediaUrl'], message: BULK_AUDIO_OGG });
      }
    },
    { when: () => true },
  );
export type BulkSendInput = z.output<typeof BulkSendSchema>;
export type BulkSendFormValues = z.input<typeof BulkSendSchema>;

export const BulkSendsQuerySchema = z.object({
  kind: z.enum(BULK_KINDS, { error: `deve ser um de ${BULK_KINDS.join(', ')}` }).optional(),
});

export const BulkSendResultsQuerySchema = z.object({
  pageNumber: z.coerce.number({ error: 'deve ser um número de página' }).int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: 'deve ser um número' })
    .int()
    .min(1)
    .max(BULK_RESULTS_PAGE_SIZE_MAX, { error: `no máximo ${BULK_RESULTS_PAGE_SIZE_MAX}` })
    .default(100),
  status: z.enum(['pending', 'sending', 'delivered', 'failed'], { error: 'deve ser um de pending, sending, delivered, failed' }).optional(),
});
export type BulkSendResultsQuery = z.output<typeof BulkSendResultsQuerySchema>;

/** A bulk send as the API answers it (list, detail, `bulkSend:update` events). */
export interface BulkSendDto {
  id: number;
  kind: BulkKind;
  status: CampaignStatus;
  channelId: number | null;
  channelName: string | null;
  message: string | null;
  mediaName: string | null;
  mimeType: string | null;
  hasMedia: boolean;
  templateName: string | null;
  templateLanguage: string | null;
  templateVariables: CampaignTemplateVariables;
  minDelay: number;
  maxDelay: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  canceledAt: string | null;
  counts: CampaignCounts;
  /** Destination lines refused before sending (see GET /bulk-sends/{id}/results). */
  invalidCount: number;
}

/** POST /bulk-sends answer: the send, its refused lines and the warning it was started with. */
export interface BulkSendCreatedDto extends BulkSendDto {
  invalidLines: BulkInvalidLine[];
  complaintWarning: CampaignComplaintWarning;
}

export interface BulkSendResultDto {
  id: number;
  contactId: number;
  name: string;
  number: string | null;
  variables: string[];
  status: CampaignContactStatus;
  messageId: string | null;
  error: string | null;
  sentAt: string | null;
}

export interface BulkSendResultsAnswer {
  results: BulkSendResultDto[];
  count: number;
  hasMore: boolean;
  pageNumber: number;
  pageSize: number;
  invalidLines: BulkInvalidLine[];
}
