import type { EntityManager } from 'typeorm';
import { chatFlowFileName } from '@shared/chatflow-file-name';
import { SOCKET_EVENTS } from '@shared/events';
import {
  FLOW_NAME_MAX,
  validateFlowGraph,
  type ChatFlow,
  type ChatFlowExport,
  type ChatFlowSummary,
  type FlowDefinition,
} from '@shared/schemas/chatflow';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { requireProfile } from '../../core/policy';
import { updateReturning } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { assertFlowReferencesOwned } from './chatflow-references';
import { ACTIVE_FLOW_READERS, chatFlowPolicy } from './chatflow.policy';
import { presentChatFlow, presentChatFlowExport, presentChatFlowSummary, type ChatFlowRow } from './chatflow.presenter';
import type { ChatFlowListQuery, CreateChatFlowInput, UpdateChatFlowInput } from './chatflow.schema';

/**
 * A flow that is (or becomes) active must be runnable: validateFlowGraph's problems (missing
 * start or targets, unreachable steps, loops without a wait) refuse it with 400
 * ERR_CHATFLOW_INVALID, the list in `problems` and one field per problem. A draft (inactive)
 * is saved as it is, so a flow can be built over several saves.
 */
export function assertRunnable(flow: FlowDefinition): void {
  const problems = validateFlowGraph(flow);
  if (problems.length === 0) return;
  const indexOf = new Map(flow.steps.map((step, index) => [step.id, index]));
  throw new AppError('ERR_CHATFLOW_INVALID', {
    details: { problems },
    fields: problems.map((p) => ({
      path: p.stepId !== undefined && indexOf.has(p.stepId) ? `flow.steps.${indexOf.get(p.stepId)}` : 'flow',
      message: p.message,
    })),
  });
}

const COPY_SUFFIX = ' (cópia)';

/** "Name (cópia)", cut so it stays within the name limit. */
export function copyName(name: string): string {
  return `${name.slice(0, FLOW_NAME_MAX - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
}

interface NewFlow {
  name: string;
  description: string;
  active: boolean;
  testNumber: string;
  flow: FlowDefinition;
}

/**
 * Chatbot flows of a tenant (issue #14): the list and the builder's CRUD, duplicate, import and
 * export. Running a flow is the engine's (tickets' inbound hook, ticket_bot_states). Every query
 * starts from the caller's tenant; every write runs in one transaction with its domain event,
 * which carries the summary only (every profile of the tenant receives it).
 */
export class ChatFlowService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events'>) {}

  /** Supervisors: every flow. `active`: the summaries of the active (or inactive) flows; active ones for every profile. */
  async list(auth: AuthContext, query: ChatFlowListQuery): Promise<ChatFlow[] | ChatFlowSummary[]> {
    const db = this.deps.dataSource;
    if (query.active === 'true') {
      requireProfile(auth, ACTIVE_FLOW_READERS);
    } else {
      chatFlowPolicy.authorize(auth, 'list');
    }
    if (query.active !== undefined) {
      const rows: ChatFlowRow[] = await db.query(
        `SELECT id, name, active FROM chat_flows WHERE "tenantId" = $1 AND active = $2 ORDER BY lower(name), id`,
        [auth.tenantId, query.active === 'true'],
      );
      return rows.map(presentChatFlowSummary);
    }
    const rows: ChatFlowRow[] = await db.query(`SELECT * FROM chat_flows WHERE "tenantId" = $1 ORDER BY lower(name), id`, [
      auth.tenantId,
    ]);
    return rows.map(presentChatFlow);
  }

  async get(auth: AuthContext, id: number): Promise<ChatFlow> {
    return presentChatFlow(chatFlowPolicy.authorizeRow(auth, 'read', await this.find(this.deps.dataSource, auth, id)));
  }

  async exportFlow(auth: AuthContext, id: number): Promise<{ fileName: string; body: ChatFlowExport }> {
    const row = chatFlowPolicy.authorizeRow(auth, 'read', await this.find(this.deps.dataSource, auth, id));
    return { fileName: chatFlowFileName(row.name), body: presentChatFlowExport(row) };
  }

  async create(auth: AuthContext, input: CreateChatFlowInput): Promise<ChatFlow> {
    chatFlowPolicy.authorize(auth, 'create');
    return this.insert(auth, input);
  }

  /** An exported file becomes a new, inactive flow of this tenant (activated after review in the builder). */
  async importFlow(auth: AuthContext, file: ChatFlowExport): Promise<ChatFlow> {
    chatFlowPolicy.authorize(auth, 'create');
    return this.insert(auth, { name: file.name, description: file.description, active: false, testNumber: '', flow: file.flow });
  }

  /** A copy named "<name> (cópia)", inactive, so it never starts on tickets before it is reviewed. */
  async duplicate(auth: AuthContext, id: number): Promise<ChatFlow> {
    const source = chatFlowPolicy.authorizeRow(auth, 'read', await this.find(this.deps.dataSource, auth, id));
    chatFlowPolicy.authorize(auth, 'create');
    return this.insert(auth, {
      name: copyName(source.name),
      description: source.description,
      active: false,
      testNumber: source.testNumber,
      flow: source.flow,
    });
  }

  async update(auth: AuthContext, id: number, input: UpdateChatFlowInput): Promise<ChatFlow> {
    const columns = (['name', 'description', 'active', 'testNumber', 'flow'] as const).filter((c) => input[c] !== undefined);
    return this.write(async (tx, emit) => {
      const current = chatFlowPolicy.authorizeRow(auth, 'update', await this.find(tx, auth, id, true));
      const flow = input.flow ?? current.flow;
      const active = input.active ?? current.active;
      // Checked when the flow becomes active or its graph changes: a rename never depends on the graph.
      if (active && (input.active === true || input.flow !== undefined)) assertRunnable(flow);
      if (input.flow) await assertFlowReferencesOwned(tx, auth.tenantId, input.flow);
      const values: unknown[] = columns.map((c) => (c === 'flow' ? JSON.stringify(input.flow) : input[c]));
      const sets = columns.map((c, i) => `"${c}" = $${i + 3}${c === 'flow' ? '::jsonb' : ''}`);
      const [row] = await updateReturning<ChatFlowRow>(
        tx,
        `UPDATE chat_flows SET ${[...sets, '"updatedAt" = now()'].join(', ')} WHERE id = $1 AND "tenantId" = $2 RETURNING *`,
        [current.id, auth.tenantId, ...values],
      );
      await emit(auth.tenantId, SOCKET_EVENTS.chatFlowUpdate, { action: 'update', chatFlow: presentChatFlowSummary(row) });
      return presentChatFlow(row);
    });
  }

  /**
   * Tickets and channels that use the flow lose it (the migration's ON DELETE SET NULL) and the
   * bot's conversations in it end (ticket_bot_states cascade). A flow another flow starts is
   * refused (409 ERR_CHATFLOW_IN_USE): that start would fail on every ticket that reaches it.
   */
  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.write(async (tx, emit) => {
      const row = chatFlowPolicy.authorizeRow(auth, 'delete', await this.find(tx, auth, id, true));
      const starters: { name: string }[] = await tx.query(
        `SELECT name FROM chat_flows
          WHERE "tenantId" = $1 AND id <> $2
            AND jsonb_path_exists(flow, '$.steps[*].interactions[*] ? (@.type == "startFlow" && @.chatFlowId == $id)', jsonb_build_object('id', $2::int))
          ORDER BY lower(name) LIMIT 5`,
        [auth.tenantId, row.id],
      );
      if (starters.length > 0) {
        throw new AppError('ERR_CHATFLOW_IN_USE', {
          message: `Os fluxos ${starters.map((s) => `"${s.name}"`).join(', ')} iniciam este fluxo; remova essa interação antes de excluí-lo.`,
        });
      }
      await tx.query(`DELETE FROM chat_flows WHERE id = $1 AND "tenantId" = $2`, [row.id, auth.tenantId]);
      await emit(auth.tenantId, SOCKET_EVENTS.chatFlowDelete, { action: 'delete', id: row.id });
    });
  }

  private insert(auth: AuthContext, input: NewFlow): Promise<ChatFlow> {
    if (input.active) assertRunnable(input.flow);
    return this.write(async (tx, emit) => {
      await assertFlowReferencesOwned(tx, auth.tenantId, input.flow);
      const [row]: ChatFlowRow[] = await tx.query(
        `INSERT INTO chat_flows ("tenantId", name, description, active, "testNumber", flow, "userId")
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) RETURNING *`,
        [auth.tenantId, input.name, input.description, input.active, input.testNumber, JSON.stringify(input.flow), auth.userId],
      );
      await emit(auth.tenantId, SOCKET_EVENTS.chatFlowUpdate, { action: 'create', chatFlow: presentChatFlowSummary(row) });
      return presentChatFlow(row);
    });
  }

  /** Scoped to the caller's tenant: a missing row and another tenant's row are the same "not found". */
  private async find(
    db: Pick<EntityManager, 'query'>,
    auth: AuthContext,
    id: number,
    forUpdate = false,
  ): Promise<ChatFlowRow | null> {
    const rows: ChatFlowRow[] = await db.query(
      `SELECT * FROM chat_flows WHERE id = $1 AND "tenantId" = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [id, auth.tenantId],
    );
    return rows[0] ?? null;
  }

  private write<T>(work: (tx: EntityManager, emit: Emit) => Promise<T>): Promise<T> {
    return this.deps.events.transaction(work);
  }
}
