import { z } from 'zod';

/**
 * White-label branding of the platform (/customizar, issue #17): the application name, the logo
 * and the favicon, set by the super administrator and served to every client at run time (no
 * rebuild). The colours are the system colours of /tenants/systemColors/.
 */

export const BRANDING_MEDIA_KINDS = ['logo', 'favicon'] as const;
export type BrandingMediaKind = (typeof BRANDING_MEDIA_KINDS)[number];

/** Multipart field of POST /admin/media-upload that carries the image. */
export const BRANDING_MEDIA_FIELD = 'file';
/** A logo or favicon is a small picture; anything larger is refused with 413. */
export const BRANDING_IMAGE_MAX_BYTES = 1024 * 1024;
export const APP_NAME_MAX = 60;

/**
 * Accepted image types, by their content (magic bytes), never by the declared type or name.
 * SVG is refused: it can carry script, and a logo served from this origin must never run any.
 */
export const BRANDING_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/x-icon'] as const;
export type BrandingImageType = (typeof BRANDING_IMAGE_TYPES)[number];
/** The file picker's filter (the server decides by content). */
export const BRANDING_IMAGE_ACCEPT = '.png,.jpg,.jpeg,.webp,.ico,image/png,image/jpeg,image/webp,image/x-icon';

/** PUT /admin/branding body. An empty name goes back to the product's own name. */
export const UpdateBrandingSchema = z.object({
  appName: z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(APP_NAME_MAX, { error: `no máximo ${APP_NAME_MAX} caracteres` })
    .nullable()
    .transform((v) => (v ? v : null)),
});
export type UpdateBrandingInput = z.infer<typeof UpdateBrandingSchema>;

/** POST /admin/media-upload text fields (beside the file). */
export const BrandingMediaUploadSchema = z.object({
  kind: z.enum(BRANDING_MEDIA_KINDS, { error: 'deve ser logo ou favicon' }),
});

/** DELETE /admin/media-upload/{kind} path. */
export const BrandingMediaKindParamsSchema = BrandingMediaUploadSchema;

/**
 * GET /publicBranding (no sign-in needed: the login page uses it) and the answer of every write.
 * URLs are paths on the API server, versioned by the image's hash so a new upload is fetched at
 * once while an unchanged one stays cached. Null: the product's own name or picture.
 */
export interface BrandingDto {
  appName: string | null;
  logoUrl: string | null;
  faviconUrl: string | null;
  updatedAt: string;
}
