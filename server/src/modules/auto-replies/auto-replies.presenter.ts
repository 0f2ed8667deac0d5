import type { AutoReply, AutoReplyAction, AutoReplyActionKind, AutoReplyStep } from '@shared/schemas/auto-reply';
import { isoDate } from '../../core/tenant-catalog';

export interface AutoReplyRow {
  id: number;
  tenantId: number;
  name: string;
  action: number;
  active: boolean;
  testNumber: string | null;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AutoReplyStepRow {
  id: number;
  tenantId: number;
  autoReplyId: number;
  reply: string;
  initialStep: boolean;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AutoReplyActionRow {
  id: number;
  tenantId: number;
  stepId: number;
  words: string;
  action: number;
  nextStepId: number | null;
  queueId: number | null;
  userIdDestination: number | null;
  replyDefinition: string | null;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export function presentAction(row: AutoReplyActionRow): AutoReplyAction {
  return {
    id: row.id,
    stepReplyId: row.stepId,
    words: row.words,
    action: row.action as AutoReplyActionKind,
    nextStepId: row.nextStepId,
    queueId: row.queueId,
    userIdDestination: row.userIdDestination,
    replyDefinition: row.replyDefinition,
    userId: row.userId,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}

export function presentStep(row: AutoReplyStepRow, actions: AutoReplyActionRow[]): AutoReplyStep {
  return {
    id: row.id,
    idAutoReply: row.autoReplyId,
    reply: row.reply,
    initialStep: row.initialStep,
    userId: row.userId,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
    stepsReplyAction: actions.filter((a) => a.stepId === row.id).map(presentAction),
  };
}

export function presentAutoReply(row: AutoReplyRow, steps: AutoReplyStepRow[], actions: AutoReplyActionRow[]): AutoReply {
  return {
    id: row.id,
    name: row.name,
    action: 0,
    active: row.active,
    testNumber: row.testNumber,
    userId: row.userId,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
    stepsReply: steps.filter((s) => s.autoReplyId === row.id).map((s) => presentStep(s, actions)),
  };
}
