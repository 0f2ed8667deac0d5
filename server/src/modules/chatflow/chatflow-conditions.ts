import type { Condition, FlowStep } from '@shared/schemas/chatflow';

/**
 * Pure parts of the engine: matching a step's conditions, business hours, and the flow's
 * variables in texts. No database, no clock of their own (the caller passes `now`).
 */

export interface ContactFields {
  name: string;
  number: string;
  email: string;
  cpf: string;
  firstName: string;
  lastName: string;
  businessName: string;
}

export interface ConditionContext {
  /** The customer's answer; null when the step does not wait (only answer-free conditions can match). */
  answer: string | null;
  /** Options of the step's menu (flowBuilder), numbered from 1. */
  options: string[];
  contact: ContactFields;
  variables: Record<string, string>;
  /** Inside the ticket's business hours now (its queue's own week, else the tenant's). */
  open: boolean;
}

/** Lowercase, accents removed, spaces collapsed: "  Olá, Vendas " -> "ola, vendas". */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whole-word containment (so "oi" does not match "boi"). */
function containsWord(haystack: string, needle: string): boolean {
  if (!needle) return false;
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(haystack);
}

function fieldValue(field: string, ctx: ConditionContext): string {
  if (field.startsWith('var.')) return ctx.variables[field.slice(4)] ?? '';
  return ctx.contact[field as keyof ContactFields] ?? '';
}

export function conditionMatches(condition: Condition, ctx: ConditionContext): boolean {
  switch (condition.type) {
    case 'any':
      return true;
    case 'businessHours':
      return condition.open === ctx.open;
    case 'field': {
      const value = normalizeText(fieldValue(condition.field, ctx));
      const expected = normalizeText(condition.value);
      if (condition.operator === 'empty') return value === '';
      if (condition.operator === 'notEmpty') return value !== '';
      if (condition.operator === 'equals') return value === expected;
      return expected !== '' && value.includes(expected);
    }
    case 'keyword': {
      if (ctx.answer === null) return false;
      const answer = normalizeText(ctx.answer);
      return condition.values.some((v) => containsWord(answer, normalizeText(v)));
    }
    case 'option': {
      if (ctx.answer === null) return false;
      const answer = normalizeText(ctx.answer);
      return condition.values.some((v) => {
        const value = normalizeText(v);
        if (answer === value) return true;
        // "2" also matches the menu's second option typed out, and the reverse.
        const index = /^\d+$/.test(value) ? Number(value) - 1 : -1;
        const optionText = index >= 0 ? ctx.options[index] : undefined;
        if (optionText !== undefined && answer === normalizeText(optionText)) return true;
        const answerIndex = /^\d+$/.test(answer) ? Number(answer) - 1 : -1;
        const answered = answerIndex >= 0 ? ctx.options[answerIndex] : undefined;
        return answered !== undefined && normalizeText(answered) === value;
      });
    }
    case 'regex': {
      if (ctx.answer === null) return false;
      try {
        return new RegExp(condition.pattern, 'iu').test(ctx.answer);
      } catch {
        return false;
      }
    }
  }
}

/** The first condition of the step that matches, or null. */
export function firstMatch(step: FlowStep, ctx: ConditionContext): Condition | null {
  return step.conditions.find((c) => conditionMatches(c, ctx)) ?? null;
}

/** The menu options of a step (its flowBuilder interactions, in order). */
export function menuOptionsOf(step: FlowStep): string[] {
  return step.interactions.flatMap((i) => (i.type === 'flowBuilder' ? i.options : []));
}

/** A menu as one message: the text, then "1 - Vendas" lines. */
export function renderMenu(text: string, options: readonly string[]): string {
  return [text, '', ...options.map((o, i) => `${i + 1} - ${o}`)].join('\n');
}

/**
 * The flow's own variables in a text: {{number}}, {{ticketId}} and {{var.NAME}} (the other
 * variables, {{name}}, {{firstName}}, {{protocol}} ..., are the message variables every send
 * fills, see tickets/ticket-variables.ts). Unknown flow variables become empty text.
 */
export function renderFlowVariables(
  text: string,
  values: { number: string; ticketId: number; variables: Record<string, string> },
  encode: (value: string) => string = (v) => v,
): string {
  return text.replace(/\{\{\s*(number|ticketId|var\.([A-Za-z_][A-Za-z0-9_]{0,39}))\s*\}\}/g, (_t, name: string, variable?: string) => {
    if (variable !== undefined) return encode(values.variables[variable] ?? '');
    return encode(name === 'number' ? values.number : String(values.ticketId));
  });
}

/** A value of a JSON answer by dotted path ("data.order.status"; "items.0.id"); '' the whole answer. */
export function valueAtPath(json: unknown, path: string): unknown {
  if (!path) return json;
  let current: unknown = json;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A variable's stored text: strings as they are, other values as JSON, missing as ''. */
export function variableText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
