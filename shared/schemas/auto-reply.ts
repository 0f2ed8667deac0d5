import { z } from 'zod';
import { AT_LEAST_ONE_FIELD_MESSAGE, CATALOG_TEXT_MAX, atLeastOneField, catalogName, formBoolean } from './catalog-fields';
import { foldForMatch } from '../validation/match-text';
import { recordId } from './record-id';

/**
 * Auto-reply (/auto-resposta), the anchor's keyword bot (spec sections 2 and 8): a bot has steps
 * (texts sent to the customer, one of them the initial step) and each step has actions (the
 * words that trigger them and where they lead). Request bodies shared by the server's
 * validate() and the React forms; answers below.
 */

/** When a bot starts: 0 = on every new ticket (the anchor's only trigger). */
export const AUTO_REPLY_TRIGGERS = [0] as const;
/** What a matched action does: 0 = go to another step, 1 = send to a queue, 2 = send to a user. */
export const AUTO_REPLY_ACTIONS = [0, 1, 2] as const;
export type AutoReplyActionKind = (typeof AUTO_REPLY_ACTIONS)[number];
export const AUTO_REPLY_WORDS_MAX = 255;
export const AUTO_REPLY_TEST_NUMBER_MAX = 30;

const replyText = z
  .string({ error: 'é obrigatório' })
  .trim()
  .min(1, { error: 'é obrigatório' })
  .max(CATALOG_TEXT_MAX, { error: `no máximo ${CATALOG_TEXT_MAX} caracteres` });

const optionalId = z.union([recordId, z.null()]).optional();

const autoReplyFields = {
  name: catalogName,
  action: z
    .union([z.literal(0), z.literal('0').transform(() => 0 as const)], { error: 'deve ser 0 (ao criar um atendimento)' })
    .optional(),
  active: formBoolean.optional(),
  /** While set, the bot only answers this contact number (digits), for trying it out. */
  testNumber: z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(AUTO_REPLY_TEST_NUMBER_MAX, { error: `no máximo ${AUTO_REPLY_TEST_NUMBER_MAX} caracteres` })
    .regex(/^\d*$/, { error: 'apenas dígitos' })
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
};

/** POST /auto-reply body. */
export const CreateAutoReplySchema = z.object(autoReplyFields);
/** PUT /auto-reply/{autoReplyId} body: any subset of the fields. */
export const UpdateAutoReplySchema = z
  .object(autoReplyFields)
  .partial()
  .refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

/** POST and PUT /auto-reply/{idAutoReply}/steps[/{stepsReplyId}] body. */
export const AutoReplyStepSchema = z.object({
  reply: replyText,
  initialStep: formBoolean.optional(),
});

const actionFields = z.object({
  stepReplyId: recordId,
  /** Comma-separated words or phrases; the customer's whole message must equal one (case and accents aside). */
  words: z
    .string({ error: 'é obrigatório' })
    .trim()
    .min(1, { error: 'é obrigatório' })
    .max(AUTO_REPLY_WORDS_MAX, { error: `no máximo ${AUTO_REPLY_WORDS_MAX} caracteres` }),
  action: z.preprocess(
    (v) => (typeof v === 'string' && /^\d$/.test(v) ? Number(v) : v),
    z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'deve ser 0 (etapa), 1 (fila) ou 2 (usuário)' }),
  ),
  nextStepId: optionalId,
  queueId: optionalId,
  userIdDestination: optionalId,
  replyDefinition: z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(CATALOG_TEXT_MAX, { error: `no máximo ${CATALOG_TEXT_MAX} caracteres` })
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
});

/** POST /auto-reply-action and PUT /auto-reply-action/{stepsReplyActionId} body: the destination its action needs. */
export const AutoReplyActionSchema = actionFields.superRefine((a, ctx) => {
  if (a.action === 0 && !a.nextStepId) ctx.addIssue({ code: 'custom', path: ['nextStepId'], message: 'escolha a próxima etapa' });
  if (a.action === 1 && !a.queueId) ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'escolha a fila' });
  if (a.action === 2 && !a.userIdDestination)
    ctx.addIssue({ code: 'custom', path: ['userIdDestination'], message: 'escolha o usuário' });
});

export type CreateAutoReplyInput = z.infer<typeof CreateAutoReplySchema>;
export type UpdateAutoReplyInput = z.infer<typeof UpdateAutoReplySchema>;
export type AutoReplyStepInput = z.infer<typeof AutoReplyStepSchema>;
export type AutoReplyActionInput = z.infer<typeof AutoReplyActionSchema>;

export interface AutoReplyAction {
  id: number;
  stepReplyId: number;
  words: string;
  action: AutoReplyActionKind;
  nextStepId: number | null;
  queueId: number | null;
  userIdDestination: number | null;
  replyDefinition: string | null;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface AutoReplyStep {
  id: number;
  idAutoReply: number;
  reply: string;
  initialStep: boolean;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
  stepsReplyAction: AutoReplyAction[];
}

export interface AutoReply {
  id: number;
  name: string;
  action: 0;
  active: boolean;
  testNumber: string | null;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
  stepsReply: AutoReplyStep[];
}

/** Whether the customer's message triggers an action of `words` (comma-separated alternatives). */
export function matchesAutoReplyWords(message: string, words: string): boolean {
  const said = foldForMatch(message);
  if (!said) return false;
  return words.split(',').some((w) => {
    const word = foldForMatch(w);
    return word.length > 0 && word === said;
  });
}
