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

export const DEFAULT_SETTINGS: Record<string, string> = {
  ...VISIBILITY_SETTINGS,
};
