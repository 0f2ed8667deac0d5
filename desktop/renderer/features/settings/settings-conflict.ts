import { DEFAULT_SETTINGS, VISIBILITY_SETTINGS, type SettingKey, type VisibilitySettingKey } from '@shared/settings';
import { EXCLUSIVE_TICKET_VIEW_SETTINGS, findSettingsConflict, type SettingEntry } from '@shared/schemas/settings';

/**
 * The general tab's view of the settings and its one cross-field rule (spec section 5, "Ticket
 * settings"; the server answers ERR_SETTINGS_CONFLICT): a change is checked before it is sent,
 * using the same rule as the server (shared/schemas/settings.ts).
 */
export const VISIBILITY_KEYS = Object.keys(VISIBILITY_SETTINGS) as VisibilitySettingKey[];
export { EXCLUSIVE_TICKET_VIEW_SETTINGS };

/** Every known key with its value; keys the server did not list take their default. */
export function settingValues(entries: readonly SettingEntry[] | undefined): Record<SettingKey, string> {
  const values: Record<string, string> = { ...DEFAULT_SETTINGS };
  for (const entry of entries ?? []) if (entry.key in DEFAULT_SETTINGS) values[entry.key] = entry.value;
  return values as Record<SettingKey, string>;
}

/**
 * The keys that would all be on together if `key` became `value`, or null when the change is
 * allowed. Turning a setting off never conflicts.
 */
export function conflictOfChange(values: Record<SettingKey, string>, key: SettingKey, value: string): SettingKey[] | null {
  const conflict = findSettingsConflict({ ...values, [key]: value });
  if (!conflict) return null;
  // Already conflicting before (a race with another admin): only block changes that keep it.
  return conflict.keys;
}

export const isEnabled = (value: string | undefined): boolean => value === 'enabled';
