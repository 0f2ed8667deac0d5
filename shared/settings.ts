import { INTERNAL_CHAT_MESSAGE_MAX_DEFAULT } from './schemas/internal-chat';

/** Per-tenant settings keys (spec section 6 visibility rules) and their defaults. */
export const VISIBILITY_SETTINGS = {
  NotViewAssignedTickets: 'disabled',
  NotViewTicketsChatBot: 'disabled',
  DirectTicketsToWallets: 'disabled',
  mostrarGruposParaTodos: 'disabled',
  mostrarFechadoParaTodos: 'disabled',
  supervisorAdmin: 'disabled',
  nullticket: 'disabled',
} as const;

export type VisibilitySettingKey = keyof typeof VISIBILITY_SETTINGS;
export type SettingValue = 'enabled' | 'disabled' | string;

/**
 * Every per-tenant setting with its default. A tenant created before a key existed has no row
 * for it: readers take the value from here, so adding a key needs no data migration.
 */
export const DEFAULT_SETTINGS = {
  ...VISIBILITY_SETTINGS,
  /** Agents cannot turn off their signature on outgoing messages (spec section 6). */
  forceSignature: 'disabled',
  /** Idle open tickets are resolved after this many minutes; '0' is off (spec section 9). */
  autoCloseTicketsMinutes: '0',
  /** IANA time zone of the tenant's calendar: the dashboard's and the reports' days and hours. */
  timeZone: 'America/Sao_Paulo',
  /** Words (comma separated) a contact writes to stop receiving campaigns; case and accents ignored. */
  campaignOptOutWords: 'SAIR, PARAR',
  /** The longest internal-chat message, in characters (spec section 9; 1..INTERNAL_CHAT_MESSAGE_MAX_CEILING). */
  internalChatMessageMax: String(INTERNAL_CHAT_MESSAGE_MAX_DEFAULT),
} as const satisfies Record<string, string>;

export type SettingKey = keyof typeof DEFAULT_SETTINGS;

export const isSettingKey = (key: string): key is SettingKey => Object.prototype.hasOwnProperty.call(DEFAULT_SETTINGS, key);
