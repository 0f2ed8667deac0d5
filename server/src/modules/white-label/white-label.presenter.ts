import type { BrandingDto, BrandingMediaKind } from '@shared/schemas/white-label';

export interface BrandingRow {
  appName: string | null;
  logoHash: string | null;
  faviconHash: string | null;
  updatedAt: Date | string;
}

/** Public path of a branding image; `v` changes with the image, so caches never serve an old one. */
export const brandingImagePath = (kind: BrandingMediaKind, hash: string): string =>
  `/publicBranding/${kind}?v=${hash.slice(0, 16)}`;

export function presentBranding(row: BrandingRow | undefined): BrandingDto {
  return {
    appName: row?.appName ?? null,
    logoUrl: row?.logoHash ? brandingImagePath('logo', row.logoHash) : null,
    faviconUrl: row?.faviconHash ? brandingImagePath('favicon', row.faviconHash) : null,
    updatedAt: new Date(row?.updatedAt ?? 0).toISOString(),
  };
}
