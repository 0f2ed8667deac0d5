import { readFileIfPresent, writePrivateFile } from '../security/private-file';

/**
 * The console's own preferences on this machine (not the account's, which live on the server):
 * "do not disturb" from the tray. A small JSON file in userData, owner-only; a missing or broken
 * file means the defaults.
 */
export interface DesktopPreferences {
  doNotDisturb: boolean;
}

export const DEFAULT_DESKTOP_PREFERENCES: DesktopPreferences = { doNotDisturb: false };

export async function loadDesktopPreferences(filePath: string): Promise<DesktopPreferences> {
  const bytes = await readFileIfPresent(filePath);
  if (!bytes) return { ...DEFAULT_DESKTOP_PREFERENCES };
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<DesktopPreferences>;
    return { doNotDisturb: value.doNotDisturb === true };
  } catch {
    return { ...DEFAULT_DESKTOP_PREFERENCES };
  }
}

export function saveDesktopPreferences(filePath: string, preferences: DesktopPreferences): Promise<void> {
  return writePrivateFile(filePath, Buffer.from(JSON.stringify({ doNotDisturb: preferences.doNotDisturb === true })));
}
