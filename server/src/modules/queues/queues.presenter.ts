import type { Queue } from '@shared/schemas/queues';
import type { BusinessHoursDay } from '@shared/schemas/tenant-settings';
import { isoDate } from '../../core/tenant-catalog';

export interface QueueRow {
  id: number;
  tenantId: number;
  name: string;
  color: string;
  greetingMessage: string | null;
  active: boolean;
  businessHours: BusinessHoursDay[] | null;
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
    businessHours: Array.isArray(row.businessHours) && row.businessHours.length > 0 ? row.businessHours : null,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}
