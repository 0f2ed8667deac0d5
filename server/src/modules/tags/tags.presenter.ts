import type { Tag } from '@shared/schemas/tags';
import { isoDate } from '../../core/tenant-catalog';

export interface TagRow {
  id: number;
  tenantId: number;
  name: string;
  color: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function presentTag(row: TagRow): Tag {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    active: row.active,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}
