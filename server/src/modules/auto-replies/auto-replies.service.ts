import type { EntityManager } from 'typeorm';
import type {
  AutoReply,
  AutoReplyAction,
  AutoReplyActionInput,
  AutoReplyStep,
  AutoReplyStepInput,
  CreateAutoReplyInput,
  UpdateAutoReplyInput,
} from '@shared/schemas/auto-reply';
import { SOCKET_EVENTS } from '@shared/events';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { updateReturning, type Queryable } from '../../core/tenant-catalog';
import { foreignKeyViolationOf } from '../../db/pg-errors';
import type { EventAudience } from '../../db/entities';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { authorizeAutoReplies, authorizeAutoReplyRow } from './auto-replies.policy';
import {
  presentAction,
  presentAutoReply,
  presentStep,
  type AutoReplyActionRow,
  type AutoReplyRow,
  type AutoReplyStepRow,
} from './auto-replies.presenter';

/**
 * Auto-replies (/auto-resposta): the bots, their steps and the steps' actions, always of the
 * caller's tenant. A bot or step that tickets still wait in cannot be deleted (409
 * ERR_AUTO_REPLY_RELATIONED_TICKET); marks left on tickets that are closed or taken by an agent
 * are cleared first, since the bot no longer runs for them.
 */
/** Only the profiles that may open /auto-resposta hear of its changes. */
const AUDIENCE: EventAudience = { scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] };

const announce = (emit: Emit, tenantId: number, action: 'create' | 'update' | 'delete', autoReplyId: number) =>
  emit(tenantId, SOCKET_EVENTS.autoReplyUpdate, { action, autoReplyId }, AUDIENCE);

export class AutoRepliesService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events'>) {}

  // ---------- bots ----------

  async list(auth: AuthContext): Promise<AutoReply[]> {
    authorizeAutoReplies(auth);
    const db = this.deps.dataSource;
    const rows: AutoReplyRow[] = await db.query(`SELECT * FROM auto_replies WHERE "tenantId" = $1 ORDER BY lower(name), id`, [
      auth.tenantId,
    ]);
    return this.present(db, auth.tenantId, rows);
  }

  async create(auth: AuthContext, input: CreateAutoReplyInput): Promise<AutoReply> {
    authorizeAutoReplies(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      const [row]: AutoReplyRow[] = await tx.query(
        `INSERT INTO auto_replies ("tenantId", name, action, active, "testNumber", "userId")
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [auth.tenantId, input.name, input.action ?? 0, input.active ?? true, input.testNumber ?? null, auth.userId],
      );
      await announce(emit, auth.tenantId, 'create', row.id);
      return presentAutoReply(row, [], []);
    });
  }

  async update(auth: AuthContext, id: number, input: UpdateAutoReplyInput): Promise<AutoReply> {
    return this.deps.events.transaction(async (tx, emit) => {
      const current = await this.lockReply(tx, auth, id);
      const [row] = await updateReturning<AutoReplyRow>(
        tx,
        `UPDATE auto_replies SET name = $3, action = $4, active = $5, "testNumber" = $6, "updatedAt" = now()
          WHERE id = $1 AND "tenantId" = $2 RETURNING *`,
        [
          current.id,
          current.tenantId,
          input.name ?? current.name,
          input.action ?? current.action,
          input.active ?? current.active,
          input.testNumber !== undefined ? input.testNumber : current.testNumber,
        ],
      );
      await announce(emit, auth.tenantId, 'update', row.id);
      return (await this.present(tx, auth.tenantId, [row]))[0];
    });
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.deleting(async (tx, emit) => {
      const current = await this.lockReply(tx, auth, id);
      await this.assertUnused(tx, current.tenantId, '"autoReplyId"', current.id);
      await tx.query(`DELETE FROM auto_replies WHERE id = $1 AND "tenantId" = $2`, [current.id, current.tenantId]);
      await announce(emit, auth.tenantId, 'delete', current.id);
    });
  }

  // ---------- steps ----------

  async createStep(auth: AuthContext, autoReplyId: number, input: AutoReplyStepInput): Promise<AutoReplyStep> {
    return this.deps.events.transaction(async (tx, emit) => {
      const reply = await this.lockReply(tx, auth, autoReplyId);
      const initial = input.initialStep ?? !(await this.hasSteps(tx, reply.id));
      if (initial) await this.clearInitial(tx, reply.id);
      const [row]: AutoReplyStepRow[] = await tx.query(
        `INSERT INTO auto_reply_steps ("tenantId", "autoReplyId", reply, "initialStep", "userId")
         VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [reply.tenantId, reply.id, input.reply, initial, auth.userId],
      );
      await announce(emit, auth.tenantId, 'update', reply.id);
      return presentStep(row, []);
    });
  }

  async updateStep(auth: AuthContext, autoReplyId: number, stepId: number, input: AutoReplyStepInput): Promise<AutoReplyStep> {
    return this.deps.events.transaction(async (tx, emit) => {
      const reply = await this.lockReply(tx, auth, autoReplyId);
      const step = await this.findStep(tx, reply, stepId);
      const initial = input.initialStep ?? step.initialStep;
      if (initial && !step.initialStep) await this.clearInitial(tx, reply.id);
      const [row] = await updateReturning<AutoReplyStepRow>(
        tx,
        `UPDATE auto_reply_steps SET reply = $2, "initialStep" = $3, "updatedAt" = now() WHERE id = $1 RETURNING *`,
        [step.id, input.reply, initial],
      );
      const actions: AutoReplyActionRow[] = await tx.query(`SELECT * FROM auto_reply_actions WHERE "stepId" = $1 ORDER BY id`, [
        step.id,
      ]);
      await announce(emit, auth.tenantId, 'update', reply.id);
      return presentStep(row, actions);
    });
  }

  async removeStep(auth: AuthContext, autoReplyId: number, stepId: number): Promise<void> {
    await this.deleting(async (tx, emit) => {
      const reply = await this.lockReply(tx, auth, autoReplyId);
      const step = await this.findStep(tx, reply, stepId);
      await this.assertUnused(tx, reply.tenantId, '"stepAutoReplyId"', step.id);
      // An action leading to this step would lead nowhere: it goes with it.
      await tx.query(`DELETE FROM auto_reply_actions WHERE "nextStepId" = $1`, [step.id]);
      await tx.query(`DELETE FROM auto_reply_steps WHERE id = $1`, [step.id]);
      await announce(emit, auth.tenantId, 'update', reply.id);
    });
  }

  // ---------- actions ----------

  async createAction(auth: AuthContext, input: AutoReplyActionInput): Promise<AutoReplyAction> {
    authorizeAutoReplies(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      const step = await this.stepOfTenant(tx, auth, input.stepReplyId);
      const dest = await this.destination(tx, step, input);
      const [row]: AutoReplyActionRow[] = await tx.query(
        `INSERT INTO auto_reply_actions ("tenantId", "stepId", words, action, "nextStepId", "queueId", "userIdDestination",
                                         "replyDefinition", "userId")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [
          step.tenantId,
          step.id,
          input.words,
          input.action,
          dest.nextStepId,
          dest.queueId,
          dest.userIdDestination,
          input.replyDefinition ?? null,
          auth.userId,
        ],
      );
      await announce(emit, auth.tenantId, 'update', step.autoReplyId);
      return presentAction(row);
    });
  }

  async updateAction(auth: AuthContext, id: number, input: AutoReplyActionInput): Promise<AutoReplyAction> {
    return this.deps.events.transaction(async (tx, emit) => {
      const current = await this.lockAction(tx, auth, id);
      // An action may move to another step of its own bot (already locked), not to another bot.
      const [step] = (await tx.query(
        `SELECT s.* FROM auto_reply_steps s
           JOIN auto_reply_steps c ON c.id = $2 AND c."autoReplyId" = s."autoReplyId"
          WHERE s.id = $1 AND s."tenantId" = $3`,
        [input.stepReplyId, current.stepId, auth.tenantId],
      )) as AutoReplyStepRow[];
      if (!step) throw new AppError('ERR_NO_STEP_AUTO_REPLY_FOUND');
      const dest = await this.destination(tx, step, input);
      const [row] = await updateReturning<AutoReplyActionRow>(
        tx,
        `UPDATE auto_reply_actions SET "stepId" = $2, words = $3, action = $4, "nextStepId" = $5, "queueId" = $6,
                "userIdDestination" = $7, "replyDefinition" = $8, "updatedAt" = now()
          WHERE id = $1 RETURNING *`,
        [
          id,
          step.id,
          input.words,
          input.action,
          dest.nextStepId,
          dest.queueId,
          dest.userIdDestination,
          input.replyDefinition ?? null,
        ],
      );
      await announce(emit, auth.tenantId, 'update', step.autoReplyId);
      return presentAction(row);
    });
  }

  async removeAction(auth: AuthContext, id: number): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      const action = await this.lockAction(tx, auth, id);
      await tx.query(`DELETE FROM auto_reply_actions WHERE id = $1`, [action.id]);
      const [step] = (await tx.query(`SELECT "autoReplyId" FROM auto_reply_steps WHERE id = $1`, [action.stepId])) as {
        autoReplyId: number;
      }[];
      if (step) await announce(emit, auth.tenantId, 'update', step.autoReplyId);
    });
  }

  // ---------- helpers ----------

  /**
   * A delete of a bot or step. A ticket that enters it while the delete runs (a new ticket
   * starting the bot commits between our check and our DELETE) makes the tickets' RESTRICT
   * foreign key refuse the DELETE: the same 409 as the check.
   */
  private async deleting(work: (tx: EntityManager, emit: Emit) => Promise<void>): Promise<void> {
    try {
      await this.deps.events.transaction(work);
    } catch (err) {
      if (foreignKeyViolationOf(err) !== undefined) throw new AppError('ERR_AUTO_REPLY_RELATIONED_TICKET');
      throw err;
    }
  }

  private async present(db: Queryable, tenantId: number, rows: AutoReplyRow[]): Promise<AutoReply[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const steps: AutoReplyStepRow[] = await db.query(
      `SELECT * FROM auto_reply_steps WHERE "tenantId" = $1 AND "autoReplyId" = ANY($2::int[]) ORDER BY id`,
      [tenantId, ids],
    );
    const actions: AutoReplyActionRow[] = steps.length
      ? await db.query(`SELECT * FROM auto_reply_actions WHERE "tenantId" = $1 AND "stepId" = ANY($2::int[]) ORDER BY id`, [
          tenantId,
          steps.map((s) => s.id),
        ])
      : [];
    return rows.map((r) => presentAutoReply(r, steps, actions));
  }

  /**
   * Serialises the writes of one bot. NO KEY UPDATE: the bot runner's foreign-key checks on
   * tickets (KEY SHARE) never wait on it, so a runner holding a ticket and a delete holding the
   * bot cannot wait on each other.
   */
  private async lockReply(tx: EntityManager, auth: AuthContext, id: number): Promise<AutoReplyRow> {
    const rows: AutoReplyRow[] = await tx.query(
      `SELECT * FROM auto_replies WHERE id = $1 AND "tenantId" = $2 FOR NO KEY UPDATE`,
      [id, auth.tenantId],
    );
    return authorizeAutoReplyRow(auth, rows[0], 'ERR_NO_AUTO_REPLY_FOUND');
  }

  private async findStep(tx: EntityManager, reply: AutoReplyRow, stepId: number): Promise<AutoReplyStepRow> {
    const rows: AutoReplyStepRow[] = await tx.query(
      `SELECT * FROM auto_reply_steps WHERE id = $1 AND "autoReplyId" = $2 AND "tenantId" = $3 FOR NO KEY UPDATE`,
      [stepId, reply.id, reply.tenantId],
    );
    if (!rows[0]) throw new AppError('ERR_NO_STEP_AUTO_REPLY_FOUND');
    return rows[0];
  }

  /** A step of the caller's tenant, its bot locked (the bot's steps change one writer at a time). */
  private async stepOfTenant(tx: EntityManager, auth: AuthContext, stepId: number): Promise<AutoReplyStepRow> {
    const rows: AutoReplyStepRow[] = await tx.query(`SELECT * FROM auto_reply_steps WHERE id = $1 AND "tenantId" = $2`, [
      stepId,
      auth.tenantId,
    ]);
    const step = authorizeAutoReplyRow(auth, rows[0], 'ERR_NO_STEP_AUTO_REPLY_FOUND');
    await this.lockReply(tx, auth, step.autoReplyId);
    return step;
  }

  /** Actions have no code of their own in the catalogue: a missing one is its step's "not found". */
  private async lockAction(tx: EntityManager, auth: AuthContext, id: number): Promise<AutoReplyActionRow> {
    const found = (await tx.query(
      `SELECT a."tenantId", s."autoReplyId" FROM auto_reply_actions a JOIN auto_reply_steps s ON s.id = a."stepId"
        WHERE a.id = $1 AND a."tenantId" = $2`,
      [id, auth.tenantId],
    )) as { tenantId: number; autoReplyId: number }[];
    const owner = authorizeAutoReplyRow(auth, found[0], 'ERR_NO_STEP_AUTO_REPLY_FOUND');
    // Every write of a bot's steps and actions locks the bot first, so two of them never wait on
    // each other in opposite orders.
    await this.lockReply(tx, auth, owner.autoReplyId);
    const rows: AutoReplyActionRow[] = await tx.query(`SELECT * FROM auto_reply_actions WHERE id = $1 FOR UPDATE`, [id]);
    if (!rows[0]) throw new AppError('ERR_NO_STEP_AUTO_REPLY_FOUND');
    return rows[0];
  }

  /** The one destination the action kind uses, checked against the tenant; the others are cleared. */
  private async destination(
    tx: EntityManager,
    step: AutoReplyStepRow,
    input: AutoReplyActionInput,
  ): Promise<{ nextStepId: number | null; queueId: number | null; userIdDestination: number | null }> {
    if (input.action === 0) {
      const rows = await tx.query(`SELECT 1 FROM auto_reply_steps WHERE id = $1 AND "autoReplyId" = $2`, [
        input.nextStepId,
        step.autoReplyId,
      ]);
      if (rows.length === 0) throw new AppError('ERR_NO_STEP_AUTO_REPLY_FOUND');
      return { nextStepId: input.nextStepId as number, queueId: null, userIdDestination: null };
    }
    if (input.action === 1) {
      const rows = await tx.query(`SELECT 1 FROM queues WHERE id = $1 AND "tenantId" = $2`, [input.queueId, step.tenantId]);
      if (rows.length === 0) throw new AppError('ERR_NO_QUEUE_FOUND');
      return { nextStepId: null, queueId: input.queueId as number, userIdDestination: null };
    }
    const rows = await tx.query(`SELECT 1 FROM users WHERE id = $1 AND "tenantId" = $2`, [
      input.userIdDestination,
      step.tenantId,
    ]);
    if (rows.length === 0) throw new AppError('ERR_NO_USER_FOUND');
    return { nextStepId: null, queueId: null, userIdDestination: input.userIdDestination as number };
  }

  private async hasSteps(tx: Queryable, autoReplyId: number): Promise<boolean> {
    return (await tx.query(`SELECT 1 FROM auto_reply_steps WHERE "autoReplyId" = $1 LIMIT 1`, [autoReplyId])).length > 0;
  }

  private async clearInitial(tx: Queryable, autoReplyId: number): Promise<void> {
    await tx.query(`UPDATE auto_reply_steps SET "initialStep" = false WHERE "autoReplyId" = $1 AND "initialStep"`, [autoReplyId]);
  }

  /**
   * 409 while a ticket still waits in the bot or step. Marks on closed tickets or tickets an
   * agent has taken are cleared first: the bot no longer runs for them.
   */
  private async assertUnused(
    tx: Queryable,
    tenantId: number,
    column: '"autoReplyId"' | '"stepAutoReplyId"',
    id: number,
  ): Promise<void> {
    await tx.query(
      `UPDATE tickets SET "autoReplyId" = NULL, "stepAutoReplyId" = NULL
        WHERE "tenantId" = $1 AND ${column} = $2 AND (status NOT IN ('open', 'pending') OR "userId" IS NOT NULL)`,
      [tenantId, id],
    );
    const used = await tx.query(`SELECT 1 FROM tickets WHERE "tenantId" = $1 AND ${column} = $2 LIMIT 1`, [tenantId, id]);
    if (used.length > 0) throw new AppError('ERR_AUTO_REPLY_RELATIONED_TICKET');
  }
}
