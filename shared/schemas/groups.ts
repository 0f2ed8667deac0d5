import { z } from 'zod';
import { recordId, recordIdSchema } from './record-id';

/**
 * WhatsApp groups of QR (Baileys) channels (issue #16 parts 5 and 6; screens /grupo/*). The
 * server validates with these schemas and the React forms reuse them (CONVENTIONS 11).
 *
 * Rules (ban, forbidden word, greeting, farewell) belong to a channel and to the groups chosen
 * (`groupIds`); no group chosen means every group of the channel. Mass operations need a
 * connection and groups (spec section 5, "Group admin").
 */

export const GROUP_SUBJECT_MAX = 100;
export const GROUP_DESCRIPTION_MAX = 2048;
export const GROUP_TEXT_MAX = 4096;
export const GROUP_WORD_MAX = 100;
/** How many groups one creation may make (massagrupos2). */
export const GROUP_CREATE_QUANTITY_MAX = 50;
export const GROUP_PARTICIPANTS_MAX = 1024;
export const GROUP_OPERATION_GROUPS_MAX = 1000;
/** A group picture sent as base64 (a JPEG or PNG file), at most this many bytes once decoded. */
export const GROUP_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const GROUP_WORD_ACTIONS = ['warn', 'remove'] as const;
export type GroupWordAction = (typeof GROUP_WORD_ACTIONS)[number];
export const GROUP_PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote'] as const;
export type GroupParticipantActionInput = (typeof GROUP_PARTICIPANT_ACTIONS)[number];
export const GROUP_TEXT_KINDS = ['word', 'greeting', 'farewell'] as const;
export type GroupTextKind = (typeof GROUP_TEXT_KINDS)[number];
export const GROUP_OPERATION_KINDS = ['update', 'create', 'participants'] as const;
export type GroupOperationKind = (typeof GROUP_OPERATION_KINDS)[number];

const whatsappId = recordIdSchema('Selecione uma conexão.', 'Selecione uma conexão.');

/** A list of numbers: an array, or a text with one number per line (or separated by commas or semicolons), as the forms hold it. */
const numberList = (required: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(/[\n,;]+/).map((n) => n.trim()).filter(Boolean) : v),
    z
      .array(groupPhoneNumber, { error: required })
      .min(1, { error: required })
      .max(GROUP_PARTICIPANTS_MAX, { error: `no máximo ${GROUP_PARTICIPANTS_MAX} números` }),
  );

/** A phone number with country code: digits only once formatting is dropped. */
export const groupPhoneNumber = z
  .string({ error: 'é obrigatório' })
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().regex(/^\d{8,15}$/, { error: 'deve ser um número com DDI (8 a 15 dígitos)' }));

/** Groups chosen for a rule: none means every group of the connection. */
const ruleGroupIds = z.array(recordId, { error: 'deve ser uma lista de grupos' }).max(GROUP_OPERATION_GROUPS_MAX).default([]);

/** Groups a mass operation acts on: at least one. */
const operationGroupIds = z
  .array(recordId, { error: 'Selecione ao menos um grupo.' })
  .min(1, { error: 'Selecione ao menos um grupo.' })
  .max(GROUP_OPERATION_GROUPS_MAX, { error: `no máximo ${GROUP_OPERATION_GROUPS_MAX} grupos` });

/** GET /groups?whatsappId= and the rule lists' filter. */
export const GroupsQuerySchema = z.object({ whatsappId });
export const GroupRulesQuerySchema = z.object({ whatsappId: whatsappId.optional() });

/** POST /groups/sync */
export const GroupSyncSchema = z.object({ whatsappId });

/** POST /groups/banlist: a number removed from the groups whenever it joins. */
export const GroupBanCreateSchema = z.object({ whatsappId, groupIds: ruleGroupIds, number: groupPhoneNumber });

/** POST /groups/wordlist: a forbidden word (stored lowercase) and what happens to whoever writes it. */
export const GroupWordCreateSchema = z.object({
  whatsappId,
  groupIds: ruleGroupIds,
  text: z
    .string({ error: 'é obrigatório' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'é obrigatório' })
    .max(GROUP_WORD_MAX, { error: `no máximo ${GROUP_WORD_MAX} caracteres` }),
  action: z.enum(GROUP_WORD_ACTIONS, { error: 'deve ser warn (avisar) ou remove (remover)' }).default('warn'),
});

/** POST /groups/greetings and /groups/farewells: the message sent when someone joins or leaves. */
export const GroupMessageCreateSchema = z.object({
  whatsappId,
  groupIds: ruleGroupIds,
  text: z
    .string({ error: 'é obrigatório' })
    .trim()
    .min(1, { error: 'é obrigatório' })
    .max(GROUP_TEXT_MAX, { error: `no máximo ${GROUP_TEXT_MAX} caracteres` }),
});

const imageBase64 = z
  .string({ error: 'deve ser uma imagem em base64' })
  .transform((v) => v.replace(/^data:image\/(png|jpe?g);base64,/i, '').replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'deve ser uma imagem JPEG ou PNG em base64' })
      .max(Math.ceil((GROUP_IMAGE_MAX_BYTES * 4) / 3) + 4, { error: 'a imagem deve ter no máximo 2 MB' }),
  );

/** A blank text means "leave it as it is" (the forms hold '' for a field left empty). */
const emptyIsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** POST /groups/operations/update (massagrupos): a new title, description and/or picture for the chosen groups. */
export const GroupUpdateOperationSchema = z
  .object({
    whatsappId,
    groupIds: operationGroupIds,
    subject: z.preprocess(emptyIsAbsent, z.string().trim().min(1).max(GROUP_SUBJECT_MAX, { error: `no máximo ${GROUP_SUBJECT_MAX} caracteres` }).optional()),
    description: z.preprocess(emptyIsAbsent, z.string().trim().max(GROUP_DESCRIPTION_MAX, { error: `no máximo ${GROUP_DESCRIPTION_MAX} caracteres` }).optional()),
    imageBase64: z.preprocess(emptyIsAbsent, imageBase64.optional()),
  })
  .refine((v) => v.subject !== undefined || v.description !== undefined || v.imageBase64 !== undefined, {
    error: 'Informe um novo título, uma descrição ou uma imagem.',
    path: ['subject'],
  });

/** POST /groups/operations/create (massagrupos2): `quantity` groups named `name` (numbered when more than one). */
export const GroupCreateOperationSchema = z.object({
  whatsappId,
  name: z
    .string({ error: 'é obrigatório' })
    .trim()
    .min(1, { error: 'é obrigatório' })
    .max(GROUP_SUBJECT_MAX - 4, { error: `no máximo ${GROUP_SUBJECT_MAX - 4} caracteres` }),
  participants: numberList('Informe ao menos um participante.'),
  quantity: z.coerce
    .number({ error: 'é obrigatório' })
    .int({ error: 'deve ser um número inteiro' })
    .min(1, { error: 'no mínimo 1' })
    .max(GROUP_CREATE_QUANTITY_MAX, { error: `no máximo ${GROUP_CREATE_QUANTITY_MAX}` }),
  description: z.preprocess(emptyIsAbsent, z.string().trim().max(GROUP_DESCRIPTION_MAX).optional()),
});

/** POST /groups/operations/participants (massausuarios): add, remove, promote or demote numbers in the chosen groups. */
export const GroupParticipantsOperationSchema = z.object({
  whatsappId,
  groupIds: operationGroupIds,
  numbers: numberList('Informe ao menos um número.'),
  action: z.enum(GROUP_PARTICIPANT_ACTIONS, { error: 'deve ser add, remove, promote ou demote' }),
});

/** GET /groups/participants/export?whatsappId=&groupIds=1,2&format=xlsx */
export const GroupExportQuerySchema = z.object({
  whatsappId,
  groupIds: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    operationGroupIds,
  ),
  format: z.enum(['csv', 'xlsx'], { error: 'deve ser csv ou xlsx' }).default('xlsx'),
});

export const GroupOperationIdSchema = z.object({ id: z.uuid({ error: 'deve ser um id de operação válido' }) });

export type GroupBanCreateInput = z.output<typeof GroupBanCreateSchema>;
export type GroupWordCreateInput = z.output<typeof GroupWordCreateSchema>;
export type GroupMessageCreateInput = z.output<typeof GroupMessageCreateSchema>;
export type GroupUpdateOperationInput = z.output<typeof GroupUpdateOperationSchema>;
export type GroupCreateOperationInput = z.output<typeof GroupCreateOperationSchema>;
export type GroupParticipantsOperationInput = z.output<typeof GroupParticipantsOperationSchema>;
export type GroupExportQuery = z.output<typeof GroupExportQuerySchema>;

export interface GroupDto {
  id: number;
  whatsappId: number;
  jid: string;
  subject: string;
  description: string | null;
  size: number;
  announce: boolean;
  restrict: boolean;
  /** The phone still takes part in the group. */
  isMember: boolean;
  /** The connection's number is an admin of the group (needed to change it or its members). */
  isAdmin: boolean;
  syncedAt: string;
}

export interface GroupParticipantDto {
  jid: string;
  number: string | null;
  admin: 'admin' | 'superadmin' | null;
}

export interface GroupSyncAnswer {
  groups: number;
  participants: number;
  items: GroupDto[];
}

/** A ban, forbidden word, greeting or farewell. */
export interface GroupRuleDto {
  id: number;
  whatsappId: number;
  whatsappName: string;
  /** Null: every group of the connection. */
  groupId: number | null;
  groupSubject: string | null;
  /** Bans: the number. Others: the text. */
  text: string;
  /** Forbidden words: what happens to whoever writes it. */
  action: GroupWordAction | null;
  userId: number | null;
  userName: string | null;
  createdAt: string;
}

export interface GroupOperationResult {
  /** What the item was about: a group's title, a new group's name, "group: number". */
  target: string;
  ok: boolean;
  message: string;
  /** The group created (massagrupos2). */
  groupJid?: string;
}

export interface GroupOperationDto {
  id: string;
  whatsappId: number;
  kind: GroupOperationKind;
  status: 'running' | 'done' | 'failed';
  total: number;
  done: number;
  results: GroupOperationResult[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** POST /contacts/sync, per channel. */
export interface ContactSyncChannelResult {
  whatsappId: number;
  name: string;
  type: string;
  /** Present when the channel cannot give its phone's contacts (its type, or its session). */
  error?: string;
  message?: string;
  created: number;
  updated: number;
  skipped: number;
}

export interface ContactSyncAnswer {
  created: number;
  updated: number;
  skipped: number;
  channels: ContactSyncChannelResult[];
}

export const ContactSyncSchema = z.object({ whatsappId: recordId.optional() });
export type ContactSyncInput = z.output<typeof ContactSyncSchema>;
