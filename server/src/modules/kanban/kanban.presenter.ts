import type { Kanban, Lane } from '@shared/schemas/kanban';
import { isoDate } from '../../core/tenant-catalog';

export interface KanbanRow {
  id: number;
  tenantId: number;
  name: string;
  color: string;
  position: number;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface LaneRow {
  id: number;
  tenantId: number;
  name: string;
  color: string;
  position: number;
  createdAt: Date;
  updatedAt: Date;
}

export function presentKanban(row: KanbanRow): Kanban {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    position: row.position,
    active: row.active,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}

export function presentLane(row: LaneRow): Lane {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    position: row.position,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}
