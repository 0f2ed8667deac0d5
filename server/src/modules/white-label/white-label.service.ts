import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import {
  BRANDING_IMAGE_MAX_BYTES,
  BRANDING_MEDIA_FIELD,
  type BrandingDto,
  type BrandingImageType,
  type BrandingMediaKind,
  type UpdateBrandingInput,
} from '@shared/schemas/white-label';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import type { UploadedFile } from '../../http/multipart';
import { recordEventInTenants } from '../../realtime/domain-events';
import { detectBrandingImageType } from './branding-image';
import { authorizeBranding } from './white-label.policy';
import { presentBranding, type BrandingRow } from './white-label.presenter';

type BrandingDeps = Pick<AppDeps, 'dataSource' | 'events'>;

export interface BrandingImage {
  bytes: Buffer;
  type: BrandingImageType;
  hash: string;
}

const BRANDING_COLUMNS = `"appName", "logoHash", "faviconHash", "updatedAt"`;

/** Column names of each image kind (fixed strings, never from the request). */
const IMAGE_COLUMNS: Record<BrandingMediaKind, { data: string; type: string; hash: string }> = {
  logo: { data: 'logo', type: '"logoType"', hash: '"logoHash"' },
  favicon: { data: 'favicon', type: '"faviconType"', hash: '"faviconHash"' },
};

const rejected = (code: 'ERR_UNSUPPORTED_FILE_TYPE' | 'ERR_PAYLOAD_TOO_LARGE', message: string) =>
  new AppError(code, { fields: [{ path: BRANDING_MEDIA_FIELD, message }] });

/**
 * The platform's white-label name, logo and favicon (one row, platform_branding id 1). Reads are
 * public; writes are the super administrator's and tell every tenant's open pages
 * (`branding:update`), which then refetch the branding and the system colours.
 */
export class WhiteLabelService {
  constructor(private readonly deps: BrandingDeps) {}

  async get(): Promise<BrandingDto> {
    const [row] = (await this.deps.dataSource.query(`SELECT ${BRANDING_COLUMNS} FROM platform_branding WHERE id = 1`)) as BrandingRow[];
    return presentBranding(row);
  }

  async image(kind: BrandingMediaKind): Promise<BrandingImage | null> {
    const c = IMAGE_COLUMNS[kind];
    const [row] = (await this.deps.dataSource.query(
      `SELECT ${c.data} AS bytes, ${c.type} AS type, ${c.hash} AS hash FROM platform_branding WHERE id = 1 AND ${c.data} IS NOT NULL`,
    )) as BrandingImage[];
    return row ?? null;
  }

  async updateName(auth: AuthContext, input: UpdateBrandingInput): Promise<BrandingDto> {
    authorizeBranding(auth, 'update');
    return this.write((tx) => tx.query(`UPDATE platform_branding SET "appName" = $1, "updatedAt" = now() WHERE id = 1 RETURNING ${BRANDING_COLUMNS}`, [input.appName]));
  }

  /** Stores a logo or favicon after checking its size and, by its bytes, its type. */
  async upload(auth: AuthContext, kind: BrandingMediaKind, file: UploadedFile | undefined): Promise<BrandingDto> {
    authorizeBranding(auth, 'update');
    if (!file || file.size === 0) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: BRANDING_MEDIA_FIELD, message: 'Arquivo é obrigatório' }] });
    }
    if (file.size > BRANDING_IMAGE_MAX_BYTES) throw rejected('ERR_PAYLOAD_TOO_LARGE', 'o arquivo deve ter no máximo 1 MB');
    const type = detectBrandingImageType(file.buffer);
    if (!type) throw rejected('ERR_UNSUPPORTED_FILE_TYPE', 'envie uma imagem PNG, JPEG, WebP ou ICO');
    const hash = createHash('sha256').update(file.buffer).digest('hex');
    const c = IMAGE_COLUMNS[kind];
    return this.write((tx) =>
      tx.query(
        `UPDATE platform_branding SET ${c.data} = $1, ${c.type} = $2, ${c.hash} = $3, "updatedAt" = now() WHERE id = 1 RETURNING ${BRANDING_COLUMNS}`,
        [file.buffer, type, hash],
      ),
    );
  }

  /** Back to the product's own logo or favicon. */
  async removeImage(auth: AuthContext, kind: BrandingMediaKind): Promise<BrandingDto> {
    authorizeBranding(auth, 'update');
    const c = IMAGE_COLUMNS[kind];
    return this.write((tx) =>
      tx.query(
        `UPDATE platform_branding SET ${c.data} = NULL, ${c.type} = NULL, ${c.hash} = NULL, "updatedAt" = now() WHERE id = 1 RETURNING ${BRANDING_COLUMNS}`,
      ),
    );
  }

  /**
   * One UPDATE of the branding row and a `branding:update` event in every tenant, in one
   * transaction; the events are published after the commit.
   */
  private async write(update: (tx: EntityManager) => Promise<unknown>): Promise<BrandingDto> {
    const { view, events } = await this.deps.dataSource.transaction(async (tx) => {
      const result = (await update(tx)) as [BrandingRow[], number] | BrandingRow[];
      // TypeORM answers UPDATE ... RETURNING with [rows, count] on pg.
      const rows = (Array.isArray(result[0]) ? result[0] : result) as BrandingRow[];
      const dto = presentBranding(rows[0]);
      const recorded = await recordEventInTenants(tx, null, SOCKET_EVENTS.brandingUpdate, dto, { scope: 'tenant' });
      return { view: dto, events: recorded };
    });
    this.deps.events.publishCommitted(events);
    return view;
  }
}
