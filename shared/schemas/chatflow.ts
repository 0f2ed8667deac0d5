import { z } from 'zod';
import { recordIdSchema } from './record-id';

/**
 * Chatbot flows (issue #14, spec sections 2 "Chatflow editor", 3 "Chatflow" and "Chatbot step",
 * 4 "self-distribution", 9 "Chatbot step: max attempts, and wait time in minutes").
 *
 * One contract for three parties: the server validates what it stores and runs (engine), the
 * builder (`/chat-flow/builder`) edits it and validates JSON imports with it, and the list
 * (`/chat-flow`) shows it. `validateFlowGraph` adds the checks a schema cannot express
 * (unreachable steps, missing targets, loops without a wait); activation refuses a flow that has
 * any of them.
 *
 * How a flow runs (see server/src/modules/chatflow):
 * - A ticket enters the flow at `startStepId`: the step's interactions run in order (messages,
 *   media, delay, tag, kanban, webhook, ...).
 * - A step that `waitsForAnswer` then waits for the customer's next message; its conditions are
 *   checked in order against it and the first that matches routes (to a step, a queue, a user,
 *   close, another channel). A step that does not wait checks its conditions at once (only
 *   conditions that need no answer can match: any, business hours, field).
 * - No condition matched: the fallback message is sent and the attempt counted; after max
 *   attempts the flow routes to `maxAttemptsTarget`.
 * - No answer for `noAnswerMinutes`: the inactivity sweep routes to `noAnswerTarget`.
 */

export const FLOW_NAME_MAX = 120;
export const FLOW_TEXT_MAX = 4096;
export const FLOW_STEPS_MAX = 200;
export const FLOW_ITEMS_MAX = 50;
export const FLOW_DELAY_MAX_SECONDS = 300;
export const FLOW_MAX_ATTEMPTS_MAX = 10;
export const FLOW_MAX_ATTEMPTS_DEFAULT = 3;
/** No-answer time, minutes (0: never). */
export const FLOW_NO_ANSWER_MAX_MINUTES = 7 * 24 * 60;
export const FLOW_VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

const text = (label: string, max = FLOW_TEXT_MAX) =>
  z.string({ error: `${label}: informe um texto` }).trim().max(max, { error: `${label}: no máximo ${max} caracteres` });
const requiredText = (label: string, max = FLOW_TEXT_MAX) => text(label, max).min(1, { error: `${label}: obrigatório` });
const stepId = z
  .string({ error: 'id da etapa: informe um texto' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'id da etapa: letras, números, _ ou -, até 64' });
const variableName = z.string().regex(FLOW_VARIABLE_NAME, { error: 'nome de variável inválido (letras, números e _)' });
const httpUrl = z
  .string({ error: 'URL: informe um endereço' })
  .trim()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), { error: 'URL inválida (http:// ou https://)' });

// ---------- Routing targets ----------
export const RouteTargetSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('step'), stepId }),
    z.object({ type: z.literal('queue'), queueId: recordIdSchema('fila inválida') }),
    z.object({ type: z.literal('user'), userId: recordIdSchema('usuário inválido') }),
    z.object({ type: z.literal('close') }),
    z.object({ type: z.literal('channel'), channelId: recordIdSchema('canal inválido') }),
  ],
  { error: 'destino inválido (etapa, fila, usuário, encerrar ou canal)' },
);
export type RouteTarget = z.infer<typeof RouteTargetSchema>;
export const ROUTE_TARGET_TYPES = ['step', 'queue', 'user', 'close', 'channel'] as const;

// ---------- Interactions ----------
export const INTERACTION_TYPES = [
  'message',
  'media',
  'flowBuilder',
  'generativeChat',
  'delay',
  'tag',
  'kanban',
  'webhook',
  'startFlow',
] as const;
export type InteractionType = (typeof INTERACTION_TYPES)[number];

const interactionBase = { id: z.string().min(1).max(64) };
export const InteractionSchema = z.discriminatedUnion(
  'type',
  [
    /** Text with variables: {{name}}, {{firstName}}, {{number}}, {{protocol}}, {{ticketId}}, {{var.NAME}}. */
    z.object({ ...interactionBase, type: z.literal('message'), text: requiredText('mensagem') }),
    /** A file sent by URL (the server downloads it through its provider HTTP client). */
    z.object({
      ...interactionBase,
      type: z.literal('media'),
      url: httpUrl,
      fileName: text('nome do arquivo', 255).optional(),
      caption: text('legenda').optional(),
    }),
    /**
     * A menu step of the flow builder: the text and numbered options sent as one message
     * ("1 - Vendas"); `option` conditions match the number or the option's text.
     */
    z.object({
      ...interactionBase,
      type: z.literal('flowBuilder'),
      text: requiredText('texto do menu'),
      options: z.array(requiredText('opção', 200), { error: 'opções do menu' }).min(1, { error: 'o menu precisa de ao menos uma opção' }).max(FLOW_ITEMS_MAX),
    }),
    /** A generative chat reply (an OpenAI-compatible endpoint of the tenant's AI settings) to the customer's last message. */
    z.object({
      ...interactionBase,
      type: z.literal('generativeChat'),
      prompt: requiredText('instrução'),
      storeAs: variableName.optional(),
    }),
    z.object({
      ...interactionBase,
      type: z.literal('delay'),
      seconds: z
        .number({ error: 'atraso: informe os segundos' })
        .int({ error: 'atraso: segundos inteiros' })
        .min(1, { error: 'atraso: ao menos 1 segundo' })
        .max(FLOW_DELAY_MAX_SECONDS, { error: `atraso: no máximo ${FLOW_DELAY_MAX_SECONDS} segundos` }),
    }),
    z.object({ ...interactionBase, type: z.literal('tag'), tagId: recordIdSchema('etiqueta inválida') }),
    z.object({ ...interactionBase, type: z.literal('kanban'), kanbanId: recordIdSchema('coluna do kanban inválida') }),
    /** GET the URL (variables allowed in it); the JSON answer's fields are stored as variables. */
    z.object({
      ...interactionBase,
      type: z.literal('webhook'),
      url: requiredText('URL', 2048),
      /** variable name -> dotted path in the JSON answer ("data.order.status"); empty: the whole top level. */
      store: z.record(variableName, z.string().max(200)).default({}),
    }),
    z.object({ ...interactionBase, type: z.literal('startFlow'), chatFlowId: recordIdSchema('fluxo inválido') }),
  ],
  { error: 'interação inválida' },
);
export type Interaction = z.infer<typeof InteractionSchema>;

// ---------- Conditions ----------
export const CONDITION_TYPES = ['keyword', 'option', 'regex', 'any', 'businessHours', 'field'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];
export const FIELD_OPERATORS = ['equals', 'contains', 'empty', 'notEmpty'] as const;

const conditionBase = { id: z.string().min(1).max(64), target: RouteTargetSchema };
export const ConditionSchema = z.discriminatedUnion(
  'type',
  [
    /** The answer contains one of the words (case and accents ignored). */
    z.object({ ...conditionBase, type: z.literal('keyword'), values: z.array(requiredText('palavra', 200)).min(1, { error: 'informe ao menos uma palavra' }).max(FLOW_ITEMS_MAX) }),
    /** The answer is one of the option numbers (or the option's text of the step's menu). */
    z.object({ ...conditionBase, type: z.literal('option'), values: z.array(requiredText('opção', 200)).min(1, { error: 'informe ao menos uma opção' }).max(FLOW_ITEMS_MAX) }),
    z.object({
      ...conditionBase,
      type: z.literal('regex'),
      pattern: requiredText('expressão regular', 500).refine(
        (p) => {
          try {
            new RegExp(p, 'iu');
            return true;
          } catch {
            return false;
          }
        },
        { error: 'expressão regular inválida' },
      ),
    }),
    z.object({ ...conditionBase, type: z.literal('any') }),
    /** Inside (open: true) or outside (open: false) the tenant's business hours. */
    z.object({ ...conditionBase, type: z.literal('businessHours'), open: z.boolean() }),
    /** A contact field (name, number, email, cpf, firstName, lastName, businessName) or a variable (var.NAME). */
    z.object({
      ...conditionBase,
      type: z.literal('field'),
      field: z.string().regex(/^(name|number|email|cpf|firstName|lastName|businessName|var\.[A-Za-z_][A-Za-z0-9_]{0,39})$/, { error: 'campo inválido' }),
      operator: z.enum(FIELD_OPERATORS, { error: 'operador inválido' }),
      value: text('valor', 500).default(''),
    }),
  ],
  { error: 'condição inválida' },
);
export type Condition = z.infer<typeof ConditionSchema>;

export const SELF_DISTRIBUTION = ['none', 'random', 'balanced'] as const;
export type SelfDistribution = (typeof SELF_DISTRIBUTION)[number];

const maxAttempts = z
  .number({ error: 'tentativas: informe um número' })
  .int({ error: 'tentativas: número inteiro' })
  .min(1, { error: 'tentativas: ao menos 1' })
  .max(FLOW_MAX_ATTEMPTS_MAX, { error: `tentativas: no máximo ${FLOW_MAX_ATTEMPTS_MAX}` });
const noAnswerMinutes = z
  .number({ error: 'tempo sem resposta: informe os minutos' })
  .int({ error: 'tempo sem resposta: minutos inteiros' })
  .min(0, { error: 'tempo sem resposta: 0 ou mais' })
  .max(FLOW_NO_ANSWER_MAX_MINUTES, { error: `tempo sem resposta: no máximo ${FLOW_NO_ANSWER_MAX_MINUTES} minutos` });

// ---------- Steps ----------
export const StepSchema = z.object({
  id: stepId,
  name: requiredText('nome da etapa', FLOW_NAME_MAX),
  /** Position on the builder's canvas. */
  position: z.object({ x: z.number().finite(), y: z.number().finite() }).default({ x: 0, y: 0 }),
  interactions: z.array(InteractionSchema).max(FLOW_ITEMS_MAX).default([]),
  conditions: z.array(ConditionSchema).max(FLOW_ITEMS_MAX).default([]),
  /** Wait for the customer's answer before checking the conditions (false: check at once). */
  waitsForAnswer: z.boolean().default(true),
  /** Overrides of the flow's settings for this step. */
  maxAttempts: maxAttempts.optional(),
  noAnswerMinutes: noAnswerMinutes.optional(),
  selfDistribution: z.enum(SELF_DISTRIBUTION).optional(),
});
export type FlowStep = z.infer<typeof StepSchema>;

export const FlowSettingsSchema = z.object({
  welcomeMessage: text('mensagem de boas-vindas').default(''),
  endMessage: text('mensagem de encerramento').default(''),
  fallbackMessage: text('mensagem de opção inválida').default(''),
  /** Start the flow only when the first message contains this word (empty: every new ticket). */
  startKeyword: text('palavra-chave de início', 200).default(''),
  noAnswerMinutes: noAnswerMinutes.default(0),
  /** Where a ticket without an answer goes (default: close). */
  noAnswerTarget: RouteTargetSchema.nullable().default(null),
  maxAttempts: maxAttempts.default(FLOW_MAX_ATTEMPTS_DEFAULT),
  /** Where a ticket goes after max attempts (default: stay pending without the bot, in the channel's queue). */
  maxAttemptsTarget: RouteTargetSchema.nullable().default(null),
  /** Route at once on the first message, without running the steps (null: off). */
  routeOnFirstInteraction: RouteTargetSchema.nullable().default(null),
  /** Route here when the first message arrives outside business hours (null: off). */
  outsideBusinessHoursTarget: RouteTargetSchema.nullable().default(null),
  /** When the flow routes to a queue: none (pending in the queue), random or balanced (fewest open tickets). */
  selfDistribution: z.enum(SELF_DISTRIBUTION).default('none'),
  /** When the flow routes to close: close the service (ticket) with the end message. */
  closeService: z.boolean().default(true),
});
export type FlowSettings = z.infer<typeof FlowSettingsSchema>;

export const FlowDefinitionSchema = z.object({
  version: z.literal(1, { error: 'versão do fluxo não suportada (esperado 1)' }).default(1),
  startStepId: stepId,
  settings: FlowSettingsSchema.default(FlowSettingsSchema.parse({})),
  steps: z
    .array(StepSchema, { error: 'etapas: informe uma lista' })
    .min(1, { error: 'o fluxo precisa de ao menos uma etapa' })
    .max(FLOW_STEPS_MAX, { error: `no máximo ${FLOW_STEPS_MAX} etapas` }),
});
export type FlowDefinition = z.infer<typeof FlowDefinitionSchema>;

// ---------- Graph checks (before activation, on import) ----------
export type FlowProblemCode = 'DUPLICATE_STEP' | 'MISSING_START' | 'MISSING_TARGET' | 'UNREACHABLE_STEP' | 'LOOP_WITHOUT_WAIT';
export interface FlowProblem {
  code: FlowProblemCode;
  stepId?: string;
  message: string;
}

function targetsOf(step: FlowStep): RouteTarget[] {
  return step.conditions.map((c) => c.target);
}

function allTargets(flow: FlowDefinition): RouteTarget[] {
  const s = flow.settings;
  return [s.noAnswerTarget, s.maxAttemptsTarget, s.routeOnFirstInteraction, s.outsideBusinessHoursTarget].filter(
    (t): t is RouteTarget => t !== null,
  );
}

/** Problems that stop a flow from being activated (empty: the flow can run). */
export function validateFlowGraph(flow: FlowDefinition): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const byId = new Map<string, FlowStep>();
  for (const step of flow.steps) {
    if (byId.has(step.id)) problems.push({ code: 'DUPLICATE_STEP', stepId: step.id, message: `Etapa "${step.id}" repetida.` });
    byId.set(step.id, step);
  }
  if (!byId.has(flow.startStepId)) {
    problems.push({ code: 'MISSING_START', message: `A etapa inicial "${flow.startStepId}" não existe.` });
  }
  const checkTarget = (t: RouteTarget, where: string, stepIdOf?: string) => {
    if (t.type === 'step' && !byId.has(t.stepId)) {
      problems.push({ code: 'MISSING_TARGET', stepId: stepIdOf, message: `${where}: a etapa de destino "${t.stepId}" não existe.` });
    }
  };
  for (const step of flow.steps) {
    for (const t of targetsOf(step)) checkTarget(t, `Etapa "${step.name}"`, step.id);
  }
  for (const t of allTargets(flow)) checkTarget(t, 'Configurações do fluxo');

  // Reachability from the start and from the flow-level targets.
  const seen = new Set<string>();
  const stack = [flow.startStepId, ...allTargets(flow).flatMap((t) => (t.type === 'step' ? [t.stepId] : []))];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id) || !byId.has(id)) continue;
    seen.add(id);
    for (const t of targetsOf(byId.get(id)!)) if (t.type === 'step') stack.push(t.stepId);
  }
  for (const step of flow.steps) {
    if (!seen.has(step.id)) problems.push({ code: 'UNREACHABLE_STEP', stepId: step.id, message: `Etapa "${step.name}" não é alcançável a partir do início.` });
  }

  // A cycle made only of steps that do not wait would run forever without the customer.
  const color = new Map<string, 0 | 1 | 2>();
  const reported = new Set<string>();
  const visit = (id: string): void => {
    color.set(id, 1);
    const step = byId.get(id)!;
    for (const t of targetsOf(step)) {
      if (t.type !== 'step') continue;
      const next = byId.get(t.stepId);
      if (!next || next.waitsForAnswer) continue;
      const c = color.get(next.id) ?? 0;
      if (c === 1 && !reported.has(next.id)) {
        reported.add(next.id);
        problems.push({ code: 'LOOP_WITHOUT_WAIT', stepId: next.id, message: `Etapa "${next.name}" está num ciclo sem espera por resposta.` });
      } else if (c === 0) visit(next.id);
    }
    color.set(id, 2);
  };
  for (const step of flow.steps) if (!step.waitsForAnswer && (color.get(step.id) ?? 0) === 0) visit(step.id);
  return problems;
}

// ---------- HTTP bodies (/chat-flow) ----------
export const ChatFlowFieldsSchema = z.object({
  name: requiredText('Nome', FLOW_NAME_MAX),
  description: text('Descrição', 1000).default(''),
  active: z.boolean().default(false),
  /** A phone number used by "test": the flow runs against this contact on a real channel. */
  testNumber: z
    .string()
    .trim()
    .regex(/^(\+?\d{8,15})?$/, { error: 'Número de teste inválido (8 a 15 dígitos)' })
    .default(''),
  flow: FlowDefinitionSchema,
});
export const CreateChatFlowSchema = ChatFlowFieldsSchema;
export const UpdateChatFlowSchema = ChatFlowFieldsSchema.partial();
export type CreateChatFlowInput = z.infer<typeof CreateChatFlowSchema>;
export type UpdateChatFlowInput = z.infer<typeof UpdateChatFlowSchema>;

/** The export file (and the import body): the flow with its name and description. */
export const ChatFlowExportSchema = z.object({
  kind: z.literal('chatflow', { error: 'arquivo não é um fluxo exportado (kind: "chatflow")' }),
  name: requiredText('Nome', FLOW_NAME_MAX),
  description: text('Descrição', 1000).default(''),
  flow: FlowDefinitionSchema,
});
export type ChatFlowExport = z.infer<typeof ChatFlowExportSchema>;

export interface ChatFlow {
  id: number;
  name: string;
  description: string;
  active: boolean;
  testNumber: string;
  flow: FlowDefinition;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /chat-flow?active=true and the transfer dialog's select: what a list needs. */
export interface ChatFlowSummary {
  id: number;
  name: string;
  active: boolean;
}

/** A new, runnable flow: one step that greets and routes any answer to close. */
export function newFlowDefinition(): FlowDefinition {
  return FlowDefinitionSchema.parse({
    startStepId: 'inicio',
    steps: [
      {
        id: 'inicio',
        name: 'Início',
        position: { x: 80, y: 80 },
        interactions: [{ id: 'i1', type: 'message', text: 'Olá {{firstName}}! Como podemos ajudar?' }],
        conditions: [{ id: 'c1', type: 'any', target: { type: 'close' } }],
      },
    ],
  });
}

// ---------- POST /chat-flow/:chatFlowId/test ----------
/** Body of the flow test: the number to run it for (default: the flow's test number). */
export const ChatFlowTestSchema = z
  .object({
    number: z
      .string({ error: 'Número de teste: informe um texto' })
      .trim()
      .regex(/^\+?\d{8,15}$/, { error: 'Número de teste inválido (8 a 15 dígitos)' })
      .optional(),
  })
  .strict();
export type ChatFlowTestInput = z.infer<typeof ChatFlowTestSchema>;

export interface ChatFlowTestResult {
  ticketId: number;
  contactId: number;
  channelId: number;
  /** The start step ran now (false: it was queued for the engine's sweep). */
  started: boolean;
}
