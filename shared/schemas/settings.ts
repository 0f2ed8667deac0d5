import { z } from 'zod';
import { AUTO_CLOSE_OPTIONS_MINUTES } from '../limits';
import { DEFAULT_SETTINGS, type SettingKey } from '../settings';
import { INTERNAL_CHAT_MESSAGE_MAX_CEILING } from './internal-chat';

/**
 * Tenant settings, general tab (GET /settings, PUT /settings/{settingKey}): the value rule of
 * each known key and the rule between keys, shared by the server and the React form.
 */

export const SETTING_VALUE_MAX = 200;

/** PUT /settings/{settingKey} body. Numbers are accepted and stored as text. */
export const UpdateSettingSchema = z.object({
  value: z
    .union([z.string(), z.number()], { error: 'é obrigatório (texto)' })
    .transform((v) => String(v).trim())
    .pipe(z.string().max(SETTING_VALUE_MAX, { error: `no máximo ${SETTING_VALUE_MAX} caracteres` })),
});

export type UpdateSettingInput = z.infer<typeof UpdateSettingSchema>;

const toggle = z.enum(['enabled', 'disabled'], { error: "deve ser 'enabled' ou 'disabled'" });

/** '0' (off) or one of the auto-close options of spec section 9, in minutes. */
export const AUTO_CLOSE_VALUES = ['0', ...AUTO_CLOSE_OPTIONS_MINUTES.map(String)] as const;

const autoCloseMinutes = z.string().refine((v) => (AUTO_CLOSE_VALUES as readonly string[]).includes(v), {
  error: `deve ser um destes valores em minutos: ${AUTO_CLOSE_VALUES.join(', ')} (0 desativa)`,
});

/**
 * Zones already found valid: building the formatter that checks a name costs about a
 * millisecond (tens on a first use), and the statistics, reports and ticket variables check the
 * tenant's zone on every call. Only valid names are kept, so the set stays within the few
 * hundred zones that exist.
 */
const knownZones = new Set<string>();

/**
 * An IANA time zone name the runtime knows (`America/Sao_Paulo`, `Europe/Lisbon`, `UTC`). Offsets
 * and POSIX rules (`UTC+3`, `EST5EDT`, `-03`) are refused: their sign conventions differ between
 * PostgreSQL and everyone else, and they ignore daylight-saving changes.
 */
export function isIanaTimeZone(name: string): boolean {
  if (name === 'UTC' || knownZones.has(name)) return true;
  if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(name) || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return false;
  }
  knownZones.add(name);
  return true;
}

const timeZone = z.string().refine(isIanaTimeZone, { error: 'deve ser um fuso horário IANA, como America/Sao_Paulo' });

/** A whole number of characters, 1..INTERNAL_CHAT_MESSAGE_MAX_CEILING (no sign, no decimals). */
const internalChatMessageMax = z
  .string()
  .refine((v) => /^\d{1,6}$/.test(v) && Number(v) >= 1 && Number(v) <= INTERNAL_CHAT_MESSAGE_MAX_CEILING, {
    error: `deve ser um número inteiro de 1 a ${INTERNAL_CHAT_MESSAGE_MAX_CEILING}`,
  });

/** The value rule of every known key; a key without a rule cannot be written (typed exhaustively). */
export const SETTING_VALUE_SCHEMAS: { [K in SettingKey]: z.ZodType<string> } = {
  NotViewAssignedTickets: toggle,
  NotViewTicketsChatBot: toggle,
  DirectTicketsToWallets: toggle,
  mostrarGruposParaTodos: toggle,
  mostrarFechadoParaTodos: toggle,
  supervisorAdmin: toggle,
  nullticket: toggle,
  forceSignature: toggle,
  autoCloseTicketsMinutes: autoCloseMinutes,
  timeZone,
  campaignOptOutWords: z
    .string()
    .max(500, { error: 'no máximo 500 caracteres' })
    .refine((v) => v.split(',').every((w) => w.trim().length <= 60), { error: 'cada palavra com no máximo 60 caracteres' }),
  internalChatMessageMax,
};

/**
 * Spec section 5 ("Ticket settings"): not viewing tickets assigned to others, not viewing
 * chatbot tickets and viewing tickets without queue or user cannot all be on together.
 */
export const EXCLUSIVE_TICKET_VIEW_SETTINGS = [
  'NotViewAssignedTickets',
  'NotViewTicketsChatBot',
  'nullticket',
] as const satisfies readonly SettingKey[];

export const SETTING_LABELS_PT: Partial<Record<SettingKey, string>> = {
  NotViewAssignedTickets: 'Não visualizar tickets atribuídos a outros usuários',
  NotViewTicketsChatBot: 'Não visualizar tickets no ChatBot',
  nullticket: 'Visualizar tickets sem fila e sem usuário',
};

export interface SettingsConflict {
  keys: SettingKey[];
  message: string;
}

/** The conflict the given values would create, or null. Absent keys count as their default. */
export function findSettingsConflict(values: Partial<Record<string, string>>): SettingsConflict | null {
  const valueOf = (key: SettingKey) => values[key] ?? DEFAULT_SETTINGS[key];
  const keys = [...EXCLUSIVE_TICKET_VIEW_SETTINGS];
  if (!keys.every((key) => valueOf(key) === 'enabled')) return null;
  const names = keys.map((key) => `"${SETTING_LABELS_PT[key]}"`);
  return {
    keys,
    message: `As configurações ${names.slice(0, -1).join(', ')} e ${names[names.length - 1]} não podem ser ativadas ao mesmo tempo. Desative uma delas antes.`,
  };
}

/** One row of GET /settings (the client keeps the list as `configuracoes`). */
export interface SettingEntry {
  key: string;
  value: string;
}

/** Payload of SOCKET_EVENTS.settingsUpdate. */
export interface SettingsUpdatePayload {
  action: 'update';
  setting: SettingEntry;
}
