import type { Queue } from '@shared/schemas/queues';
import { isoDate } from '../../core/tenant-catalog';

export interface QueueRow {
  id: number;
  tenantId: number;
  name: string;
  color: string;
  greetingMessage: string | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function presentQueue(row: QueueRow): Queue {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    greetingMessage: row.greetingMessage,
    active: row.active,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}
