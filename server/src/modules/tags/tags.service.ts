import { SOCKET_EVENTS } from '@shared/events';
import type { Tag } from '@shared/schemas/tags';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { TenantCatalog } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { tagPolicy } from './tags.policy';
import { presentTag, type TagRow } from './tags.presenter';
import type { CreateTagInput, UpdateTagInput } from './tags.schema';

/** Tags (etiquetas) of the tenant's contacts. */
export class TagsService {
  private readonly catalog: TenantCatalog<TagRow, Tag>;

  constructor(deps: Pick<AppDeps, 'dataSource' | 'events'>) {
    this.catalog = new TenantCatalog(deps, {
      table: 'tags',
      writable: ['name', 'color', 'active'],
      orderBy: 'lower(name), id',
      policy: tagPolicy,
      uniqueIndexes: { tags_tenant_name_uq: { code: 'ERR_TAG_EXISTS', field: 'name' } },
      referencedBy: 'ERR_TAG_CONTACTS_EXISTS',
      events: { update: SOCKET_EVENTS.tagUpdate, delete: SOCKET_EVENTS.tagDelete, key: 'tag' },
      present: async (rows) => rows.map(presentTag),
    });
  }

  list(auth: AuthContext): Promise<Tag[]> {
    return this.catalog.list(auth);
  }

  create(auth: AuthContext, input: CreateTagInput): Promise<Tag> {
    return this.catalog.create(auth, input);
  }

  update(auth: AuthContext, id: number, input: UpdateTagInput): Promise<Tag> {
    return this.catalog.update(auth, id, input);
  }

  /** Refused while contacts carry the tag: removing it silently would change reports and filters. */
  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.catalog.remove(auth, id, {
      beforeDelete: async (tx, tag) => {
        const used: unknown[] = await tx.query(`SELECT 1 FROM contact_tags WHERE "tenantId" = $1 AND "tagId" = $2 LIMIT 1`, [
          tag.tenantId,
          tag.id,
        ]);
        if (used.length > 0) throw new AppError('ERR_TAG_CONTACTS_EXISTS');
      },
    });
  }
}
