import type { BrandingDto } from '@shared/schemas/white-label';

/** Absolute address of a branding image (the desktop console loads the bundle from disk). */
export const brandingAssetUrl = (apiBaseUrl: string, path: string | null): string | null => (path ? `${apiBaseUrl}${path}` : null);

/** The page title with the app name, keeping the "(n) " unread prefix the attention code adds. */
export function titleWithName(currentTitle: string, name: string): string {
  const prefix = /^\(\d+\)\s*/.exec(currentTitle)?.[0] ?? '';
  return `${prefix}${name}`;
}

/** The white-label name, or the product's own when none is set. */
export const appNameOf = (branding: BrandingDto | undefined, fallback: string): string => branding?.appName || fallback;
