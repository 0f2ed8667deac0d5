import type { ChannelRecord, ChannelType, SessionStatus } from './channel-adapter';

/** A `channels` row as stored (secrets included: it never leaves the server as is). */
export interface ChannelRow {
  id: number;
  tenantId: number;
  name: string;
  type: ChannelType;
  status: SessionStatus;
  statusReason: string | null;
  qrcode: string | null;
  pairingCode: string | null;
  retries: number;
  number: string | null;
  isDefault: boolean;
  queueId: number | null;
  userId: number | null;
  chatFlowId: number | null;
  providerConfig: Record<string, unknown>;
  secrets: Record<string, unknown>;
  /** Third-party settings (e.g. `generativeChat`: the chatbot's AI endpoint, its key included). */
  integrations?: Record<string, unknown>;
  birthdayMessage: string | null;
  birthdayHour: number | null;
  farewellMessage: string | null;
  closingKeyword: string | null;
  autoDistribution: 'none' | 'random' | 'balanced';
  createdAt: Date;
  updatedAt: Date;
}

export function toChannelRecord(row: ChannelRow): ChannelRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    type: row.type,
    name: row.name,
    status: row.status,
    number: row.number,
    providerConfig: row.providerConfig ?? {},
    secrets: row.secrets ?? {},
  };
}
