import { z } from 'zod';
import { CAMPAIGN_MAX_MESSAGES, SPAM_COMPLAINT_BAN_PERCENT } from '../limits';
import { formBoolean } from './catalog-fields';
import { parseScheduleDate } from './messages';
import { recordId, recordIdSchema } from './record-id';
import { templateHeaderMediaSchema, templateVariableListSchema, type TemplateVariableValues } from './templates';

/**
 * Campaigns (issue #16; screens /campanhas and /campanhas/{campanhaId}). The server validates with
 * these schemas and the React forms reuse them (react-hook-form + zodResolver), so a rule and its
 * message are written once.
 */

export const CAMPAIGN_STATUSES = ['pending', 'scheduled', 'processing', 'canceled', 'finished'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** `sending`: claimed by the sender, its provider call under way (internal; shown as pending). */
export const CAMPAIGN_CONTACT_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type CampaignContactStatus = (typeof CAMPAIGN_CONTACT_STATUSES)[number];

/** Spec section 4: only these may be edited or scheduled. */
export const CAMPAIGN_EDITABLE_STATUSES: readonly CampaignStatus[] = ['pending', 'canceled'];
export const isCampaignEditable = (status: CampaignStatus): boolean => CAMPAIGN_EDITABLE_STATUSES.includes(status);
/** Cancel stops a scheduled or running campaign. */
export const isCampaignCancelable = (status: CampaignStatus): boolean => status === 'scheduled' || status === 'processing';

export const CAMPAIGN_NAME_MAX = 120;
export const CAMPAIGN_MESSAGE_MAX = 4096;
/** Spacing between two sends of the channel, in seconds (the sender adds up to half of it as jitter). */
export const CAMPAIGN_DELAY_DEFAULT = 20;
export const CAMPAIGN_DELAY_MAX = 3600;
export const CAMPAIGN_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** A start typed for "now" in the form is a minute or so old when it arrives: this much is still "not in the past". */
export const CAMPAIGN_START_TOLERANCE_MS = 2 * 60_000;
export const CAMPAIGN_CONTACTS_PAGE_SIZE_DEFAULT = 50;
export const CAMPAIGN_CONTACTS_PAGE_SIZE_MAX = 500;
/** Contact ids one link request may name. */
export const CAMPAIGN_LINK_IDS_MAX = 10_000;
/**
 * A customer's reply opens a ticket as a campaign answer (the campaign's queue for answers, the
 * campaign message shown first) when the campaign message reached them on that channel at most
 * this many days before.
 */
export const CAMPAIGN_ANSWER_WINDOW_DAYS = 7;
/** Linking contacts by import (POST /campaigns/contacts/{campaignId}/import): the file's size and data rows. */
export const CAMPAIGN_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CAMPAIGN_IMPORT_MAX_ROWS = 10_000;
export const CAMPAIGN_IMPORT_EXTENSIONS = ['.csv', '.xlsx'] as const;
/** Invalid lines answered back (the count is always complete). */
export const CAMPAIGN_IMPORT_REPORTED_LINES = 20;

export const CAMPAIGN_NAME_REQUIRED = 'Nome é obrigatório';
export const CAMPAIGN_START_PAST = 'Não é possível programar campanha com data menor que hoje.';

/** Multipart forms send '' for an empty field. */
const emptyToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

const optionalMessage = z.preprocess(
  emptyToNull,
  z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(CAMPAIGN_MESSAGE_MAX, { error: `no máximo ${CAMPAIGN_MESSAGE_MAX} caracteres` })
    .nullable()
    .transform((v) => (v ? v : null)),
);

/** A date and time: ISO 8601 (the form sends the tenant's wall time with its offset) or dd/MM/yyyy HH:mm. */
const startDate = z.preprocess(
  (v) => (v instanceof Date ? v.toISOString() : v),
  z.string({ error: 'Data inválida' }).transform((value, ctx) => {
    const date = parseScheduleDate(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: 'Data inválida (use dd/MM/yyyy HH:mm ou ISO 8601)' });
      return z.NEVER;
    }
    return date;
  }),
);

export const templateNameField = z.preprocess(
  emptyToNull,
  z.string({ error: 'deve ser um texto' }).trim().max(512, { error: 'no máximo 512 caracteres' }).nullable(),
).optional();
export const templateLanguageField = z.preprocess(
  emptyToNull,
  z.string({ error: 'deve ser um texto' }).trim().max(15, { error: 'no máximo 15 caracteres' }).nullable(),
).optional();

/**
 * The variable texts of a campaign's or bulk send's template, by part as the composer's
 * template send takes them (`header`: the text header's {{1}}; `body`: {{1}}..{{n}}; `buttons`:
 * one per URL button with a {{1}}, in the buttons' order; `headerMedia`: the https link, and a
 * document's file name, of an IMAGE, VIDEO or DOCUMENT header, the same for every contact). Each
 * text may use the message variables ({{name}} ...), filled per contact.
 */
export type CampaignTemplateVariables = TemplateVariableValues;
export const emptyTemplateVariables = (): CampaignTemplateVariables => ({ header: [], body: [], buttons: [] });

/** Before header and button variables, a template's variables were the body's only: a plain list. */
const bodyOnlyList = (v: unknown): unknown => (Array.isArray(v) ? { body: v } : v);

/**
 * `{header?, body?, buttons?, headerMedia?}`, or the older body-only list (`['a', 'b']` is `{body: ['a', 'b']}`);
 * multipart forms send either as JSON text. Missing or empty: no variables.
 */
export const templateVariablesField = z.preprocess(
  (v) => {
    if (v === '' || v === undefined || v === null) return {};
    if (typeof v === 'string') {
      try {
        return bodyOnlyList(JSON.parse(v));
      } catch {
        return v;
      }
    }
    return bodyOnlyList(v);
  },
  z.strictObject(
    {
      header: templateVariableListSchema.default([]),
      body: templateVariableListSchema.default([]),
      buttons: templateVariableListSchema.default([]),
      headerMedia: templateHeaderMediaSchema.optional(),
    },
    { error: 'deve ser {header, body, buttons, headerMedia} (listas de textos e o link da mídia) ou uma lista de textos' },
  ),
);

/** A stored `templateVariables` (JSON) as its parts; a body-only list (older rows) is the body. */
export function normalizeTemplateVariables(stored: unknown): CampaignTemplateVariables {
  const value = bodyOnlyList(stored);
  if (typeof value !== 'object' || value === null) return emptyTemplateVariables();
  const part = (p: unknown) => (Array.isArray(p) ? p.map((x) => String(x)) : []);
  const v = value as Record<string, unknown>;
  const media = v.headerMedia as { link?: unknown; filename?: unknown } | null | undefined;
  return {
    header: part(v.header),
    body: part(v.body),
    buttons: part(v.buttons),
    ...(media && typeof media.link === 'string'
      ? {
          headerMedia: {
            link: media.link,
            ...(typeof media.filename === 'string' && media.filename ? { filename: media.filename } : {}),
          },
        }
      : {}),
  };
}

/** True when `start` is not earlier than now (with the form's tolerance). */
export const isCampaignStartValid = (start: Date, now: Date = new Date()): boolean =>
  start.getTime() >= now.getTime() - CAMPAIGN_START_TOLERANCE_MS;

const campaignFields = {
  name: z
    .string({ error: CAMPAIGN_NAME_REQUIRED })
    .trim()
    .min(1, { error: CAMPAIGN_NAME_REQUIRED })
    .max(CAMPAIGN_NAME_MAX, { error: `no máximo ${CAMPAIGN_NAME_MAX} caracteres` }),
  start: startDate.refine((d) => isCampaignStartValid(d), { error: CAMPAIGN_START_PAST }),
  /** Required unless the campaign sends a template (then it is ignored and stored empty). */
  message1: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z
      .string({ error: 'Mensagem 1 é obrigatório' })
      .trim()
      .max(CAMPAIGN_MESSAGE_MAX, { error: `no máximo ${CAMPAIGN_MESSAGE_MAX} caracteres` }),
  ),
  message2: optionalMessage.optional(),
  message3: optionalMessage.optional(),
  delay: z.preprocess(
    (v) => (v === '' || v === undefined ? CAMPAIGN_DELAY_DEFAULT : v),
    z.coerce
      .number({ error: 'deve ser um número de segundos' })
      .int({ error: 'deve ser um número inteiro de segundos' })
      .min(0, { error: 'não pode ser negativo' })
      .max(CAMPAIGN_DELAY_MAX, { error: `no máximo ${CAMPAIGN_DELAY_MAX} segundos` }),
  ),
  channelId: recordIdSchema('Conexão é obrigatório'),
  queueId: z.preprocess(emptyToNull, recordId.nullable()).optional(),
  /** Edit only: drop the stored media (a new file replaces it anyway). */
  removeMedia: formBoolean.optional(),
  /** WABA only: a synced, approved template of the channel sent instead of the messages. */
  templateName: templateNameField,
  templateLanguage: templateLanguageField,
  /** The template's header, body and button variables (see templateVariablesField); each may use the message variables ({{name}} ...). */
  templateVariables: templateVariablesField,
};

/** Message 1 is required unless a template is chosen; a template needs its language. */
const campaignContentCheck = (value: unknown, ctx: z.RefinementCtx): void => {
  if (typeof value !== 'object' || value === null) return;
  const v = value as { message1?: unknown; templateName?: unknown; templateLanguage?: unknown };
  const template = typeof v.templateName === 'string' && v.templateName.trim() !== '';
  if (!template && (typeof v.message1 !== 'string' || v.message1.trim() === '')) {
    ctx.addIssue({ code: 'custom', path: ['message1'], message: 'Mensagem 1 é obrigatório' });
  }
  if (template && (typeof v.templateLanguage !== 'string' || v.templateLanguage.trim() === '')) {
    ctx.addIssue({ code: 'custom', path: ['templateLanguage'], message: 'Idioma do modelo é obrigatório' });
  }
};

/**
 * POST /campaigns and PUT /campaigns/{campaignId} (JSON or multipart with the file in `medias`).
 * The anchor client's `sessionId` is accepted as `channelId` (see the routes' aliases).
 */
export const CampaignSchema = z.object(campaignFields).superRefine(campaignContentCheck, { when: () => true });
export type CampaignInput = z.output<typeof CampaignSchema>;
/** The form's values (what the dialog holds before parsing). */
export type CampaignFormValues = z.input<typeof CampaignSchema>;

/** The messages of a campaign, in order, without the empty ones (at most CAMPAIGN_MAX_MESSAGES). */
export function campaignMessages(c: { message1: string; message2?: string | null; message3?: string | null }): string[] {
  return [c.message1, c.message2 ?? null, c.message3 ?? null].filter((m): m is string => Boolean(m?.trim())).slice(0, CAMPAIGN_MAX_MESSAGES);
}

/** POST /campaigns/start/{campaignId}: schedule at the campaign's start, or now (`startNow`). */
export const StartCampaignSchema = z.object({ startNow: formBoolean.optional() });

const idList = z
  .array(recordId, { error: 'deve ser uma lista de ids' })
  .max(CAMPAIGN_LINK_IDS_MAX, { error: `no máximo ${CAMPAIGN_LINK_IDS_MAX} contatos por vez` });

/**
 * POST /campaigns/contacts/{campaignId}: contacts by id, or every contact of the tenant matching a
 * filter (tags, wallets, kanban column, search), or both. The anchor client posts an array of
 * contact rows (`[{ id, ... }]`): read as their ids.
 */
export const LinkCampaignContactsSchema = z.preprocess(
  (v) =>
    Array.isArray(v)
      ? { contactIds: v.map((c) => (typeof c === 'object' && c !== null && 'id' in c ? (c as { id: unknown }).id : c)) }
      : v,
  z
    .object({
      contactIds: idList.optional(),
      filter: z
        .object({
          tags: idList.optional(),
          wallets: idList.optional(),
          kanbanId: recordId.optional(),
          searchParam: z.string().trim().max(100, { error: 'no máximo 100 caracteres' }).optional(),
          /** Every contact of the tenant (no other condition needed). */
          all: z.boolean().optional(),
        })
        .strict()
        .optional(),
    })
    .refine(
      (v) =>
        (v.contactIds?.length ?? 0) > 0 ||
        (v.filter !== undefined &&
          (v.filter.all === true ||
            (v.filter.tags?.length ?? 0) > 0 ||
            (v.filter.wallets?.length ?? 0) > 0 ||
            v.filter.kanbanId !== undefined ||
            Boolean(v.filter.searchParam))),
      { error: 'informe os contatos (ids) ou um filtro (etiquetas, carteiras, coluna do kanban ou todos)', path: ['contactIds'] },
    ),
);
export type LinkCampaignContactsInput = z.output<typeof LinkCampaignContactsSchema>;

export const CampaignContactsQuerySchema = z.object({
  pageNumber: z.coerce.number({ error: 'deve ser um número de página' }).int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number({ error: 'deve ser um número' })
    .int()
    .min(1)
    .max(CAMPAIGN_CONTACTS_PAGE_SIZE_MAX, { error: `no máximo ${CAMPAIGN_CONTACTS_PAGE_SIZE_MAX}` })
    .default(CAMPAIGN_CONTACTS_PAGE_SIZE_DEFAULT),
  status: z.enum(CAMPAIGN_CONTACT_STATUSES, { error: `deve ser um de ${CAMPAIGN_CONTACT_STATUSES.join(', ')}` }).optional(),
});
export type CampaignContactsQuery = z.output<typeof CampaignContactsQuerySchema>;

export interface CampaignCounts {
  contacts: number;
  pending: number;
  sending: number;
  delivered: number;
  failed: number;
}

/** A campaign as the API answers it (GET /campaigns, events). */
export interface CampaignDto {
  id: number;
  name: string;
  start: string;
  status: CampaignStatus;
  message1: string;
  message2: string | null;
  message3: string | null;
  mediaName: string | null;
  mimeType: string | null;
  hasMedia: boolean;
  delay: number;
  /** A WABA template sent instead of the messages (null: free text). */
  templateName: string | null;
  templateLanguage: string | null;
  templateVariables: CampaignTemplateVariables;
  channelId: number | null;
  /** The anchor's name for the channel. */
  sessionId: number | null;
  channelName: string | null;
  queueId: number | null;
  userId: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  canceledAt: string | null;
  createdAt: string;
  updatedAt: string;
  counts: CampaignCounts;
  /** The anchor's list fields: linked contacts and messages still to send. */
  contactsCount: number;
  pendentesEnvio: number;
}

export interface CampaignContactDto {
  id: number;
  contactId: number;
  name: string;
  number: string | null;
  status: CampaignContactStatus;
  /** 1, 2 or 3: the message the contact got (null until sent). */
  messageIndex: number | null;
  messageId: string | null;
  error: string | null;
  sentAt: string | null;
  optedOut: boolean;
}

export interface CampaignContactsAnswer {
  contacts: CampaignContactDto[];
  count: number;
  hasMore: boolean;
  pageNumber: number;
  pageSize: number;
}

/** The answer of an import: what was linked, created and refused. */
export interface ImportCampaignContactsAnswer extends LinkCampaignContactsAnswer {
  /** Data rows read (blank rows aside). */
  rows: number;
  /** Contacts the file named that did not exist and were created. */
  created: number;
  /** The same number twice in the file: linked once. */
  duplicates: number;
  invalid: { count: number; lines: { line: number; reason: string }[] };
}

export interface LinkCampaignContactsAnswer {
  /** Rows added now (contacts already linked are not counted twice). */
  added: number;
  counts: CampaignCounts;
}

/** Spec section 9: a number is blocked if 2% of a campaign's recipients report it. */
export interface CampaignComplaintWarning {
  percent: number;
  recipients: number;
  /** Complaints that block the number: SPAM_COMPLAINT_BAN_PERCENT % of the recipients, rounded up (at least 1). */
  complaintsToBlock: number;
  text: string;
}

export function campaignComplaintWarning(recipients: number): CampaignComplaintWarning {
  const complaintsToBlock = Math.max(1, Math.ceil((recipients * SPAM_COMPLAINT_BAN_PERCENT) / 100));
  return {
    percent: SPAM_COMPLAINT_BAN_PERCENT,
    recipients,
    complaintsToBlock,
    text:
      `Atenção: o número é bloqueado se ${SPAM_COMPLAINT_BAN_PERCENT}% dos destinatários o denunciarem. ` +
      `Com ${recipients} contato(s), ${complaintsToBlock} denúncia(s) bastam. Envie apenas a quem aceitou receber suas mensagens.`,
  };
}

/** GET /campaigns/{campaignId}: the campaign and the warning its start confirmation shows. */
export interface CampaignDetailDto extends CampaignDto {
  complaintWarning: CampaignComplaintWarning;
}

/** Reason written on a contact that opted out (inbound opt-out word) or is blocked. */
export const CAMPAIGN_OPTED_OUT_REASON = 'Contato pediu para não receber campanhas.';
export const CAMPAIGN_BLOCKED_REASON = 'Contato bloqueado.';
export const CAMPAIGN_NO_ADDRESS_REASON = 'Contato sem endereço nesta conexão.';
/** A send whose worker died during the provider call: not resent (it may have arrived). */
export const CAMPAIGN_INTERRUPTED_REASON = 'Envio interrompido: não confirmado pelo provedor, não reenviado.';

/** The opt-out words of the tenant setting `campaignOptOutWords`, folded for comparison. */
export function optOutWords(setting: string): string[] {
  return setting
    .split(',')
    .map(foldOptOutText)
    .filter((w) => w.length > 0);
}

/** Case and accents ignored, surrounding spaces and punctuation trimmed: "  Parar! " is "PARAR". */
export function foldOptOutText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/^[\s.!?,;:]+|[\s.!?,;:]+$/g, '')
    .toUpperCase();
}
