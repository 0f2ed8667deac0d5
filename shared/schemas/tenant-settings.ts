import { z } from 'zod';
import { RATING_LABELS } from '../limits';

/**
 * Tenant settings of spec section 7 ("Tenant settings"): business hours, the out-of-hours
 * message, rating settings and the platform's white-label colours. The server validates request
 * bodies with these schemas and the React client reuses them for its forms.
 */

// ---------- Business hours (spec sections 3 and 4) ----------

export const BUSINESS_DAY_TYPES = ['O', 'C', 'H'] as const;
export type BusinessDayType = (typeof BUSINESS_DAY_TYPES)[number];

/** 00:00 .. 23:59; the string form compares in time order. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const BUSINESS_HOURS_MESSAGE_MAX = 4096;

const timeOfDay = z
  .string({ error: 'deve ser um horário HH:mm' })
  .regex(TIME_OF_DAY_PATTERN, { error: 'deve ser um horário HH:mm (00:00 a 23:59)' });

/**
 * One weekday (0 = domingo .. 6 = sábado). Type O: open all day; C: closed all day;
 * H: open from hr1 to hr2 and from hr3 to hr4 (hr2 = hr3 makes one continuous period).
 */
export const BusinessHoursDaySchema = z
  .object({
    day: z
      .int({ error: 'deve ser um dia da semana de 0 a 6' })
      .min(0, { error: 'deve ser um dia da semana de 0 a 6' })
      .max(6, { error: 'deve ser um dia da semana de 0 a 6' }),
    label: z.string().trim().max(40, { error: 'no máximo 40 caracteres' }).optional(),
    type: z.enum(BUSINESS_DAY_TYPES, { error: 'deve ser O (aberto), C (fechado) ou H (horário)' }),
    hr1: timeOfDay,
    hr2: timeOfDay,
    hr3: timeOfDay,
    hr4: timeOfDay,
  })
  .superRefine((d, ctx) => {
    if (d.type !== 'H') return;
    if (d.hr1 >= d.hr2)
      ctx.addIssue({ code: 'custom', path: ['hr2'], message: 'o fim do primeiro período deve ser depois do início (hr1 < hr2)' });
    if (d.hr2 > d.hr3)
      ctx.addIssue({
        code: 'custom',
        path: ['hr3'],
        message: 'o segundo período deve começar depois do fim do primeiro (hr2 <= hr3)',
      });
    if (d.hr3 >= d.hr4)
      ctx.addIssue({ code: 'custom', path: ['hr4'], message: 'o fim do segundo período deve ser depois do início (hr3 < hr4)' });
  });

export type BusinessHoursDay = z.infer<typeof BusinessHoursDaySchema>;

/** PUT /tenants/business-hours/ body: the whole week, one entry per weekday, answered sorted. */
export const BusinessHoursSchema = z
  .array(BusinessHoursDaySchema, { error: 'deve ser a lista dos 7 dias da semana' })
  .length(7, { error: 'deve conter exatamente os 7 dias da semana' })
  .superRefine((days, ctx) => {
    const seen = new Set<number>();
    days.forEach((d, index) => {
      if (seen.has(d.day))
        ctx.addIssue({ code: 'custom', path: [index, 'day'], message: `o dia ${d.day} aparece mais de uma vez` });
      seen.add(d.day);
    });
  })
  .transform((days) => [...days].sort((a, b) => a.day - b.day));

export const WEEKDAY_LABELS = [
  'Domingo',
  'Segunda-Feira',
  'Terça-Feira',
  'Quarta-Feira',
  'Quinta-Feira',
  'Sexta-Feira',
  'Sábado',
] as const;

/** A tenant that never saved its hours works Monday to Friday, 08:00-12:00 and 13:00-18:00. */
export const DEFAULT_BUSINESS_HOURS: readonly BusinessHoursDay[] = WEEKDAY_LABELS.map((label, day) => ({
  day,
  label,
  type: day === 0 || day === 6 ? 'C' : 'H',
  hr1: '08:00',
  hr2: '12:00',
  hr3: '13:00',
  hr4: '18:00',
}));

/** The stored week completed with the default for any weekday never saved, sorted by day. */
export function withDefaultWeek(stored: readonly BusinessHoursDay[] | null | undefined): BusinessHoursDay[] {
  const byDay = new Map((stored ?? []).map((d) => [d.day, d]));
  return DEFAULT_BUSINESS_HOURS.map((def) => ({ ...def, ...byDay.get(def.day) }));
}

/** PUT /tenants/message-business-hours/ body. An empty text means "no absence message". */
export const MessageBusinessHoursSchema = z.object({
  messageBusinessHours: z
    .string({ error: 'é obrigatório' })
    .trim()
    .max(BUSINESS_HOURS_MESSAGE_MAX, { error: `no máximo ${BUSINESS_HOURS_MESSAGE_MAX} caracteres` }),
});

export interface BusinessHoursResponse {
  businessHours: BusinessHoursDay[];
  messageBusinessHours: string | null;
}

// ---------- Rating settings (spec sections 3, 4 and 9) ----------

export const RATING_MESSAGE_MAX = 1000;
export const RATING_MAX_ATTEMPTS = 10;

/** PUT /tenants/rating/ body; GET answers the same shape with the defaults filled in. */
export const RatingSettingsSchema = z
  .object({
    enabled: z.boolean({ error: 'deve ser verdadeiro ou falso' }),
    /** The rating request sent to the contact. */
    message: z
      .string({ error: 'é obrigatório' })
      .trim()
      .max(RATING_MESSAGE_MAX, { error: `no máximo ${RATING_MESSAGE_MAX} caracteres` }),
    /** Label of each rating 0..5 (Ruim .. Incrível by default). */
    labels: z
      .array(z.string().trim().min(1, { error: 'não pode ser vazio' }).max(40, { error: 'no máximo 40 caracteres' }), {
        error: 'deve ser a lista dos 6 rótulos (notas 0 a 5)',
      })
      .length(RATING_LABELS.length, { error: 'deve conter 6 rótulos, um por nota de 0 a 5' })
      .optional(),
    /** How many times the request is repeated when the reply is not a valid rating. */
    maxAttempts: z
      .int({ error: 'deve ser um número inteiro' })
      .min(1, { error: 'no mínimo 1' })
      .max(RATING_MAX_ATTEMPTS, { error: `no máximo ${RATING_MAX_ATTEMPTS}` })
      .optional(),
    /** Sent after a valid rating; empty sends nothing. */
    thanksMessage: z
      .string()
      .trim()
      .max(RATING_MESSAGE_MAX, { error: `no máximo ${RATING_MESSAGE_MAX} caracteres` })
      .optional(),
  })
  .superRefine((s, ctx) => {
    if (s.enabled && s.message.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['message'], message: 'é obrigatório quando a avaliação está ativa' });
    }
  });

export type RatingSettingsInput = z.infer<typeof RatingSettingsSchema>;

// A type alias, not an interface, so it fits the jsonb column typed Record<string, unknown>.
export type RatingSettings = {
  enabled: boolean;
  message: string;
  labels: string[];
  maxAttempts: number;
  thanksMessage: string;
};

export const DEFAULT_RATING_SETTINGS: RatingSettings = {
  enabled: false,
  message: 'Por favor, avalie o nosso atendimento com uma nota de 0 a 5.',
  labels: [...RATING_LABELS],
  maxAttempts: 3,
  thanksMessage: 'Obrigado pela sua avaliação!',
};

/** Stored settings (possibly partial or from an older shape) completed with the defaults. */
export function withDefaultRating(stored: Partial<RatingSettings> | null | undefined): RatingSettings {
  const s = stored ?? {};
  return {
    enabled: typeof s.enabled === 'boolean' ? s.enabled : DEFAULT_RATING_SETTINGS.enabled,
    message: typeof s.message === 'string' ? s.message : DEFAULT_RATING_SETTINGS.message,
    labels:
      Array.isArray(s.labels) && s.labels.length === RATING_LABELS.length ? [...s.labels] : [...DEFAULT_RATING_SETTINGS.labels],
    maxAttempts: typeof s.maxAttempts === 'number' ? s.maxAttempts : DEFAULT_RATING_SETTINGS.maxAttempts,
    thanksMessage: typeof s.thanksMessage === 'string' ? s.thanksMessage : DEFAULT_RATING_SETTINGS.thanksMessage,
  };
}

// ---------- System colours (white label, spec sections 1 and 3) ----------

export const SYSTEM_COLORS_MAX_ENTRIES = 32;
const COLOR_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,39}$/;
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)`;
const CHANNEL = String.raw`${NUMBER}(?:%|deg|turn|rad)?`;
// rgb()/rgba()/hsl()/hsla() with numeric channels only, comma or space separated, optional alpha.
const FUNCTIONAL_COLOR = new RegExp(
  String.raw`^(?:rgba?|hsla?)\(\s*${CHANNEL}(?:\s*,\s*|\s+)${CHANNEL}(?:\s*,\s*|\s+)${CHANNEL}(?:\s*[,/]\s*${NUMBER}%?)?\s*\)$`,
  'i',
);

/**
 * A CSS colour a stylesheet can take as is: hex, rgb()/hsl() with numbers, or `transparent`.
 * Anything else (url(), var(), expressions, `;`) is refused so a stored colour cannot smuggle CSS.
 */
export const isCssColor = (value: string): boolean =>
  HEX_COLOR.test(value) || FUNCTIONAL_COLOR.test(value) || value.toLowerCase() === 'transparent';

/**
 * One entry: colour name -> CSS colour, e.g. `{ "label": "Primary", "primary": "#3b5bdb" }`.
 * `label` is the display name that anchor clients read (its lower case is the colour key).
 */
export const SystemColorEntrySchema = z
  .record(z.string(), z.unknown(), { error: 'deve ser um objeto { nome: cor }' })
  .superRefine((entry, ctx) => {
    const keys = Object.keys(entry);
    if (keys.length > 16) ctx.addIssue({ code: 'custom', message: 'no máximo 16 cores por objeto' });
    let colors = 0;
    for (const key of keys) {
      const value = entry[key];
      if (key === 'label') {
        if (typeof value !== 'string' || !/^[\p{L}\p{N} _-]{1,40}$/u.test(value)) {
          ctx.addIssue({ code: 'custom', path: [key], message: 'deve ser um texto de 1 a 40 letras ou números' });
        }
        continue;
      }
      if (!COLOR_NAME_PATTERN.test(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'nome de cor inválido (letras, números, - ou _)' });
        continue;
      }
      if (typeof value !== 'string' || !isCssColor(value.trim())) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'deve ser uma cor CSS (#rrggbb, rgb(), hsl() ou transparent)' });
        continue;
      }
      colors += 1;
    }
    if (colors === 0) ctx.addIssue({ code: 'custom', message: 'deve conter ao menos uma cor' });
  })
  .transform(
    (entry) => Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, String(v).trim()])) as Record<string, string>,
  );

/** PUT /tenants/systemColors/ body. */
export const SystemColorsSchema = z
  .array(SystemColorEntrySchema, { error: 'deve ser uma lista de objetos { nome: cor }' })
  .min(1, { error: 'deve conter ao menos uma cor' })
  .max(SYSTEM_COLORS_MAX_ENTRIES, { error: `no máximo ${SYSTEM_COLORS_MAX_ENTRIES} cores` });

export type SystemColors = Record<string, string>[];

/** The platform palette until the super administrator saves one. */
export const DEFAULT_SYSTEM_COLORS: SystemColors = [
  { label: 'Primary', primary: '#3b5bdb' },
  { label: 'Secondary', secondary: '#f1f3f5' },
  { label: 'Accent', accent: '#e64980' },
  { label: 'Neutral', neutral: '#dee2e6' },
  { label: 'Positive', positive: '#2f9e44' },
  { label: 'Negative', negative: '#e03131' },
  { label: 'Warning', warning: '#f59f00' },
  { label: 'Info', info: '#1c7ed6' },
];

// ---------- Realtime ----------

/** Payload of SOCKET_EVENTS.tenantUpdate: the tenant and the settings that changed. */
export interface TenantUpdatePayload {
  tenantId: number;
  businessHours?: BusinessHoursDay[];
  messageBusinessHours?: string | null;
  ratingSettings?: RatingSettings;
  systemColors?: SystemColors;
}
