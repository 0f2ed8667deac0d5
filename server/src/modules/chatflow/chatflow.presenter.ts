import type { ChatFlow, ChatFlowExport, ChatFlowSummary, FlowDefinition } from '@shared/schemas/chatflow';
import { isoDate } from '../../core/tenant-catalog';

export interface ChatFlowRow {
  id: number;
  tenantId: number;
  name: string;
  description: string;
  active: boolean;
  testNumber: string;
  flow: FlowDefinition;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export function presentChatFlow(row: ChatFlowRow): ChatFlow {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    active: row.active,
    testNumber: row.testNumber,
    flow: row.flow,
    userId: row.userId,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}

export function presentChatFlowSummary(row: Pick<ChatFlowRow, 'id' | 'name' | 'active'>): ChatFlowSummary {
  return { id: row.id, name: row.name, active: row.active };
}

/** The export file: what an import needs, nothing of this tenant's bookkeeping (ids, user, dates). */
export function presentChatFlowExport(row: ChatFlowRow): ChatFlowExport {
  return { kind: 'chatflow', name: row.name, description: row.description, flow: row.flow };
}
