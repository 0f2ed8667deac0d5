import type { QuickMessage } from '@shared/schemas/quick-messages';
import { isoDate } from '../../core/tenant-catalog';

export interface QuickMessageRow {
  id: number;
  tenantId: number;
  userId: number | null;
  key: string;
  message: string;
  /** Relative to the tenant's upload folder; never leaves the server. */
  mediaPath: string | null;
  mediaName: string | null;
  mediaType: string | null;
  sendAsVoice: boolean;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const quickMessageFileUrl = (id: number): string => `/fastreply/${id}/file`;

export function presentQuickMessage(row: QuickMessageRow): QuickMessage {
  return {
    id: row.id,
    key: row.key,
    message: row.message,
    sendAsVoice: row.sendAsVoice,
    active: row.active,
    userId: row.userId,
    mediaName: row.mediaPath ? row.mediaName : null,
    mediaType: row.mediaPath ? row.mediaType : null,
    mediaUrl: row.mediaPath ? quickMessageFileUrl(row.id) : null,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}
