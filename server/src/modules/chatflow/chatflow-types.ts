import type { FlowDefinition, RouteTarget, SelfDistribution } from '@shared/schemas/chatflow';
import type { BusinessHoursDay } from '@shared/schemas/tenant-settings';
import type { BotResume } from '../tickets/ticket-bot';
import type { ContactFields } from './chatflow-conditions';

/** The engine's shapes (chatflow-engine.ts decides, chatflow-writes.ts writes). */

/** Origin of every message the bot sends (messages.dataJson.origin): an automated message, never an agent's reply. */
export const CHATBOT_ORIGIN = 'chatbot';

export type Variables = Record<string, string>;

/** What a run writes in its transaction. */
export type Effect =
  | { kind: 'text'; body: string }
  | { kind: 'media'; relativePath: string; mimeType: string; fileName: string; caption: string }
  | { kind: 'tag'; tagId: number }
  | { kind: 'kanban'; kanbanId: number };

export interface RouteSettings {
  closeService: boolean;
  endMessage: string;
  selfDistribution: SelfDistribution;
}

export type Next =
  | {
      type: 'wait';
      flowId: number;
      stepId: string;
      attempts: number;
      variables: Variables;
      dueAt: Date | null;
      resume?: BotResume;
    }
  /** target null: the bot lets go, the ticket stays pending in its queue. */
  | { type: 'route'; target: RouteTarget | null; settings: RouteSettings; reason: string };

export interface Outcome {
  effects: Effect[];
  next: Next;
  /** Due time of a delay: the run goes on then (job, sweep as safety net). */
  resumeInMs?: number;
}

/** Everything a run reads, in one query, outside any transaction. */
export interface Facts {
  ticketId: number;
  tenantId: number;
  contactId: number;
  whatsappId: number | null;
  userId: number | null;
  status: string;
  isGroup: boolean;
  botActive: boolean;
  chatFlowId: number | null;
  protocol: string;
  channelFlowId: number | null;
  blockChatbot: boolean;
  contact: ContactFields;
  /** The week that applies: the ticket queue's own, else the tenant's (weekOfTicket). */
  businessHours: BusinessHoursDay[];
  timeZone: string;
  state: {
    chatFlowId: number;
    stepId: string;
    attempts: number;
    variables: Record<string, unknown>;
    dueAt: Date | null;
    version: string;
  } | null;
}

export interface LoadedFlow {
  id: number;
  active: boolean;
  definition: FlowDefinition;
}
