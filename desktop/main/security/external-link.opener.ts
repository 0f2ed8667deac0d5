export const EXTERNAL_URL_MAX_LENGTH = 2048;

/**
 * Only plain web links leave the app. file:, javascript:, data:, smb: and custom schemes could run
 * or open local programs through the OS handler, and user:password@ URLs are a phishing trick
 * (`https://bank.example@evil.example`).
 */
export function isSafeExternalUrl(rawUrl: string): boolean {
  if (typeof rawUrl !== 'string' || rawUrl.length > EXTERNAL_URL_MAX_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (!url.hostname || url.username || url.password) return false;
  return true;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
}

/** Opens the link in the user's browser when it is safe; returns whether it was handed over. */
export async function openExternalSafely(rawUrl: string, shell: ShellLike): Promise<boolean> {
  if (!isSafeExternalUrl(rawUrl)) return false;
  // Hand over the normalised form so what the OS opens is exactly what was checked.
  await shell.openExternal(new URL(rawUrl).href);
  return true;
}
