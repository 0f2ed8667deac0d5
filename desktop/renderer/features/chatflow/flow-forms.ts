import { z } from 'zod';
import {
  ConditionSchema,
  FlowSettingsSchema,
  InteractionSchema,
  StepSchema,
  type Condition,
  type ConditionType,
  type FlowSettings,
  type FlowStep,
  type Interaction,
  type InteractionType,
  type RouteTarget,
} from '@shared/schemas/chatflow';

/**
 * What the builder's forms hold (texts, as inputs give them) and how it becomes the shared
 * contract's shapes: each form is validated by the contract's own schema (behind a preprocess
 * that reads the texts), so a rule and its message are the server's (CONVENTIONS 11), and the
 * field names are the schema's paths, so each message lands under its field.
 */

// ---------- Routing targets ----------
export type TargetType = '' | RouteTarget['type'];
export interface TargetValues {
  type: TargetType;
  stepId: string;
  queueId: string;
  userId: string;
  channelId: string;
}

export function targetToValues(target: RouteTarget | null | undefined): TargetValues {
  return {
    type: target?.type ?? '',
    stepId: target?.type === 'step' ? target.stepId : '',
    queueId: target?.type === 'queue' ? String(target.queueId) : '',
    userId: target?.type === 'user' ? String(target.userId) : '',
    channelId: target?.type === 'channel' ? String(target.channelId) : '',
  };
}

/** null for "none"; the chosen kind with only its own id otherwise (an empty id stays empty, for the schema to name). */
export function valuesToTarget(values: TargetValues | undefined): unknown {
  switch (values?.type) {
    case 'step':
      return { type: 'step', stepId: values.stepId };
    case 'queue':
      return { type: 'queue', queueId: values.queueId };
    case 'user':
      return { type: 'user', userId: values.userId };
    case 'channel':
      return { type: 'channel', channelId: values.channelId };
    case 'close':
      return { type: 'close' };
    default:
      return null;
  }
}

// ---------- Interactions ----------
export interface InteractionValues {
  id: string;
  type: InteractionType;
  text: string;
  url: string;
  fileName: string;
  caption: string;
  /** One option per line. */
  options: string;
  prompt: string;
  storeAs: string;
  seconds: string;
  tagId: string;
  kanbanId: string;
  chatFlowId: string;
  /** One "variable=path.in.answer" per line. */
  store: string;
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export function interactionToValues(interaction: Interaction | null, type: InteractionType = 'message'): InteractionValues {
  const i = interaction as Partial<Record<string, unknown>> | null;
  const str = (key: string) => (i && i[key] !== undefined && i[key] !== null ? String(i[key]) : '');
  return {
    id: interaction?.id ?? '',
    type: interaction?.type ?? type,
    text: str('text'),
    url: str('url'),
    fileName: str('fileName'),
    caption: str('caption'),
    options: interaction?.type === 'flowBuilder' ? interaction.options.join('\n') : '',
    prompt: str('prompt'),
    storeAs: str('storeAs'),
    seconds: str('seconds'),
    tagId: str('tagId'),
    kanbanId: str('kanbanId'),
    chatFlowId: str('chatFlowId'),
    store:
      interaction?.type === 'webhook'
        ? Object.entries(interaction.store)
            .map(([name, path]) => `${name}=${path}`)
            .join('\n')
        : '',
  };
}

const optional = (text: string): string | undefined => (text.trim() === '' ? undefined : text);

export function valuesToInteraction(values: InteractionValues): unknown {
  const id = values.id || 'novo';
  switch (values.type) {
    case 'message':
      return { id, type: 'message', text: values.text };
    case 'media':
      return { id, type: 'media', url: values.url, fileName: optional(values.fileName), caption: optional(values.caption) };
    case 'flowBuilder':
      return { id, type: 'flowBuilder', text: values.text, options: lines(values.options) };
    case 'generativeChat':
      return { id, type: 'generativeChat', prompt: values.prompt, storeAs: optional(values.storeAs) };
    case 'delay':
      return { id, type: 'delay', seconds: values.seconds.trim() === '' ? undefined : Number(values.seconds) };
    case 'tag':
      return { id, type: 'tag', tagId: values.tagId };
    case 'kanban':
      return { id, type: 'kanban', kanbanId: values.kanbanId };
    case 'webhook':
      return {
        id,
        type: 'webhook',
        url: values.url,
        store: Object.fromEntries(
          lines(values.store).map((line) => {
            const at = line.indexOf('=');
            return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
          }),
        ),
      };
    case 'startFlow':
      return { id, type: 'startFlow', chatFlowId: values.chatFlowId };
  }
}

export const InteractionFormSchema = z.preprocess((v) => valuesToInteraction(v as InteractionValues), InteractionSchema);

// ---------- Conditions ----------
export interface ConditionValues {
  id: string;
  type: ConditionType;
  /** Keywords or option numbers, separated by commas or lines. */
  values: string;
  pattern: string;
  open: 'true' | 'false';
  field: string;
  operator: 'equals' | 'contains' | 'empty' | 'notEmpty';
  value: string;
  target: TargetValues;
}

export function conditionToValues(condition: Condition | null, defaultTarget: RouteTarget | null = null): ConditionValues {
  return {
    id: condition?.id ?? '',
    type: condition?.type ?? 'keyword',
    values: condition && (condition.type === 'keyword' || condition.type === 'option') ? condition.values.join(', ') : '',
    pattern: condition?.type === 'regex' ? condition.pattern : '',
    open: condition?.type === 'businessHours' && !condition.open ? 'false' : 'true',
    field: condition?.type === 'field' ? condition.field : 'name',
    operator: condition?.type === 'field' ? condition.operator : 'equals',
    value: condition?.type === 'field' ? condition.value : '',
    target: targetToValues(condition?.target ?? defaultTarget),
  };
}

const items = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');

export function valuesToCondition(values: ConditionValues): unknown {
  const base = { id: values.id || 'novo', target: valuesToTarget(values.target) ?? undefined };
  switch (values.type) {
    case 'keyword':
    case 'option':
      return { ...base, type: values.type, values: items(values.values) };
    case 'regex':
      return { ...base, type: 'regex', pattern: values.pattern };
    case 'any':
      return { ...base, type: 'any' };
    case 'businessHours':
      return { ...base, type: 'businessHours', open: values.open === 'true' };
    case 'field':
      return { ...base, type: 'field', field: values.field.trim(), operator: values.operator, value: values.value };
  }
}

export const ConditionFormSchema = z.preprocess((v) => valuesToCondition(v as ConditionValues), ConditionSchema);

// ---------- Step ----------
export interface StepValues {
  name: string;
  waitsForAnswer: boolean;
  /** '' = the flow's setting. */
  maxAttempts: string;
  noAnswerMinutes: string;
  selfDistribution: '' | 'none' | 'random' | 'balanced';
}

export function stepToValues(step: FlowStep): StepValues {
  return {
    name: step.name,
    waitsForAnswer: step.waitsForAnswer,
    maxAttempts: step.maxAttempts === undefined ? '' : String(step.maxAttempts),
    noAnswerMinutes: step.noAnswerMinutes === undefined ? '' : String(step.noAnswerMinutes),
    selfDistribution: step.selfDistribution ?? '',
  };
}

const numberOrUndefined = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

export const StepFormSchema = z.preprocess(
  (v) => {
    const values = v as StepValues;
    return {
      name: values.name,
      waitsForAnswer: values.waitsForAnswer,
      maxAttempts: numberOrUndefined(values.maxAttempts),
      noAnswerMinutes: numberOrUndefined(values.noAnswerMinutes),
      selfDistribution: values.selfDistribution === '' ? undefined : values.selfDistribution,
    };
  },
  StepSchema.pick({ name: true, waitsForAnswer: true, maxAttempts: true, noAnswerMinutes: true, selfDistribution: true }),
);

// ---------- Flow settings ----------
export interface SettingsValues {
  welcomeMessage: string;
  endMessage: string;
  fallbackMessage: string;
  startKeyword: string;
  noAnswerMinutes: string;
  noAnswerTarget: TargetValues;
  maxAttempts: string;
  maxAttemptsTarget: TargetValues;
  routeOnFirstInteraction: TargetValues;
  outsideBusinessHoursTarget: TargetValues;
  selfDistribution: 'none' | 'random' | 'balanced';
  closeService: boolean;
}

export const SETTINGS_TARGETS = [
  'noAnswerTarget',
  'maxAttemptsTarget',
  'routeOnFirstInteraction',
  'outsideBusinessHoursTarget',
] as const;

export function settingsToValues(settings: FlowSettings): SettingsValues {
  return {
    welcomeMessage: settings.welcomeMessage,
    endMessage: settings.endMessage,
    fallbackMessage: settings.fallbackMessage,
    startKeyword: settings.startKeyword,
    noAnswerMinutes: String(settings.noAnswerMinutes),
    noAnswerTarget: targetToValues(settings.noAnswerTarget),
    maxAttempts: String(settings.maxAttempts),
    maxAttemptsTarget: targetToValues(settings.maxAttemptsTarget),
    routeOnFirstInteraction: targetToValues(settings.routeOnFirstInteraction),
    outsideBusinessHoursTarget: targetToValues(settings.outsideBusinessHoursTarget),
    selfDistribution: settings.selfDistribution,
    closeService: settings.closeService,
  };
}

export const SettingsFormSchema = z.preprocess((v) => {
  const values = v as SettingsValues;
  return {
    ...values,
    noAnswerMinutes: numberOrUndefined(values.noAnswerMinutes),
    maxAttempts: numberOrUndefined(values.maxAttempts),
    ...Object.fromEntries(SETTINGS_TARGETS.map((key) => [key, valuesToTarget(values[key])])),
  };
}, FlowSettingsSchema);
