import type { FlowDefinition, RouteTarget } from '@shared/schemas/chatflow';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';

/** The tables a flow may name ids of; constants, never input. */
const REFERENCE_TABLES = {
  queue: { table: 'queues', message: 'fila não encontrada nesta empresa' },
  user: { table: 'users', message: 'usuário não encontrado nesta empresa' },
  channel: { table: 'channels', message: 'conexão não encontrada nesta empresa' },
  tag: { table: 'tags', message: 'etiqueta não encontrada nesta empresa' },
  kanban: { table: 'kanbans', message: 'coluna do kanban não encontrada nesta empresa' },
  chatFlow: { table: 'chat_flows', message: 'fluxo não encontrado nesta empresa' },
} as const;
type ReferenceKind = keyof typeof REFERENCE_TABLES;

export interface FlowReference {
  kind: ReferenceKind;
  id: number;
  /** Where the flow names it, as a zod issue path of the request body ("flow.steps.0.conditions.1.target.queueId"). */
  path: string;
}

function targetReference(target: RouteTarget | null, path: string): FlowReference[] {
  if (!target) return [];
  switch (target.type) {
    case 'queue':
      return [{ kind: 'queue', id: target.queueId, path: `${path}.queueId` }];
    case 'user':
      return [{ kind: 'user', id: target.userId, path: `${path}.userId` }];
    case 'channel':
      return [{ kind: 'channel', id: target.channelId, path: `${path}.channelId` }];
    default:
      return [];
  }
}

/** Every id of another record a flow names (routing targets, tag, kanban and start-flow interactions). */
export function flowReferences(flow: FlowDefinition, base = 'flow'): FlowReference[] {
  const refs: FlowReference[] = [];
  const settings = flow.settings;
  for (const key of ['noAnswerTarget', 'maxAttemptsTarget', 'routeOnFirstInteraction', 'outsideBusinessHoursTarget'] as const) {
    refs.push(...targetReference(settings[key], `${base}.settings.${key}`));
  }
  flow.steps.forEach((step, s) => {
    step.conditions.forEach((condition, c) => {
      refs.push(...targetReference(condition.target, `${base}.steps.${s}.conditions.${c}.target`));
    });
    step.interactions.forEach((interaction, i) => {
      const at = `${base}.steps.${s}.interactions.${i}`;
      if (interaction.type === 'tag') refs.push({ kind: 'tag', id: interaction.tagId, path: `${at}.tagId` });
      if (interaction.type === 'kanban') refs.push({ kind: 'kanban', id: interaction.kanbanId, path: `${at}.kanbanId` });
      if (interaction.type === 'startFlow') refs.push({ kind: 'chatFlow', id: interaction.chatFlowId, path: `${at}.chatFlowId` });
    });
  });
  return refs;
}

/**
 * Refuses (400 ERR_CHATFLOW_REFERENCE, one field per place) a flow that names a queue, user,
 * channel, tag, kanban column or flow that is not the tenant's: the engine would otherwise route
 * a ticket into another tenant's records. One query per kind of record the flow names.
 */
export async function assertFlowReferencesOwned(
  db: Queryable,
  tenantId: number,
  flow: FlowDefinition,
  base = 'flow',
): Promise<void> {
  const refs = flowReferences(flow, base);
  if (refs.length === 0) return;
  const missing: { path: string; message: string }[] = [];
  for (const kind of Object.keys(REFERENCE_TABLES) as ReferenceKind[]) {
    const ofKind = refs.filter((r) => r.kind === kind);
    if (ofKind.length === 0) continue;
    const { table, message } = REFERENCE_TABLES[kind];
    const ids = [...new Set(ofKind.map((r) => r.id))];
    const rows: { id: number }[] = await db.query(`SELECT id FROM ${table} WHERE "tenantId" = $1 AND id = ANY($2::int[])`, [
      tenantId,
      ids,
    ]);
    const owned = new Set(rows.map((r) => Number(r.id)));
    for (const ref of ofKind) if (!owned.has(ref.id)) missing.push({ path: ref.path, message });
  }
  if (missing.length > 0) {
    throw new AppError('ERR_CHATFLOW_REFERENCE', {
      fields: missing,
      message: `O fluxo usa registros que não existem nesta empresa: ${missing.map((f) => `${f.path}: ${f.message}`).join('; ')}`,
    });
  }
}
