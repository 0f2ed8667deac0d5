import { DESKTOP_LIMITS } from '@shared/desktop-api';
import { readFileIfPresent, writePrivateFile } from '../security/private-file';

/**
 * The console's own preferences on this machine (not the account's, which live on the server):
 * "do not disturb" from the tray and the media cache's size budget. A small JSON file in
 * userData, owner-only; a missing or broken file (or a value out of range) means the defaults.
 */
export interface DesktopPreferences {
  doNotDisturb: boolean;
  /** The media cache's budget the agent chose; null: the default (MEDIA_BUDGET_DEFAULT_BYTES). */
  mediaBudgetBytes: number | null;
}

export const DEFAULT_DESKTOP_PREFERENCES: DesktopPreferences = { doNotDisturb: false, mediaBudgetBytes: null };

const budgetOf = (value: unknown): number | null =>
  typeof value === 'number' &&
  Number.isSafeInteger(value) &&
  value >= DESKTOP_LIMITS.mediaBudgetMinBytes &&
  value <= DESKTOP_LIMITS.mediaBudgetMaxBytes
    ? value
    : null;

export async function loadDesktopPreferences(filePath: string): Promise<DesktopPreferences> {
  const bytes = await readFileIfPresent(filePath);
  if (!bytes) return { ...DEFAULT_DESKTOP_PREFERENCES };
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<DesktopPreferences>;
    return { doNotDisturb: value.doNotDisturb === true, mediaBudgetBytes: budgetOf(value.mediaBudgetBytes) };
  } catch {
    return { ...DEFAULT_DESKTOP_PREFERENCES };
  }
}

export function saveDesktopPreferences(filePath: string, preferences: DesktopPreferences): Promise<void> {
  return writePrivateFile(
    filePath,
    Buffer.from(JSON.stringify({ doNotDisturb: preferences.doNotDisturb === true, mediaBudgetBytes: budgetOf(preferences.mediaBudgetBytes) })),
  );
}
