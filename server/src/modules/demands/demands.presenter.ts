import type { Demand } from '@shared/schemas/demands';
import { isoDate } from '../../core/tenant-catalog';

export interface DemandRow {
  id: number;
  tenantId: number;
  name: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function presentDemand(row: DemandRow): Demand {
  return { id: row.id, name: row.name, active: row.active, createdAt: isoDate(row.createdAt), updatedAt: isoDate(row.updatedAt) };
}
