import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SOCKET_EVENTS } from '@shared/events';
import type {
  GroupCreateOperationInput,
  GroupOperationDto,
  GroupOperationKind,
  GroupOperationResult,
  GroupParticipantsOperationInput,
  GroupUpdateOperationInput,
} from '@shared/schemas/groups';
import type { ChannelGroupsApi } from '../../channels/channel-adapter';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { failureText, loadGroupChannel } from './group-channel';
import { groupsByIds, storeGroups, type GroupRow } from './group-store';
import { authorizeGroupRow, authorizeGroups } from './groups.policy';

interface OperationRow {
  id: string;
  tenantId: number;
  channelId: number;
  userId: number | null;
  kind: GroupOperationKind;
  status: GroupOperationDto['status'];
  total: number;
  done: number;
  results: GroupOperationResult[];
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const present = (r: OperationRow): GroupOperationDto => ({
  id: r.id,
  whatsappId: r.channelId,
  kind: r.kind,
  status: r.status,
  total: r.total,
  done: r.done,
  results: r.results,
  error: r.error,
  createdAt: new Date(r.createdAt).toISOString(),
  finishedAt: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
});

/** One step of an operation: what it is about and the provider call(s) it makes. */
interface Step {
  target: string;
  run(): Promise<Partial<GroupOperationResult> | void>;
}

type OperationDeps = Pick<AppDeps, 'dataSource' | 'events' | 'channels' | 'logger' | 'config'>;

/**
 * Mass operations on a channel's groups (/grupo/massagrupos, massagrupos2, massausuarios): the
 * request checks everything it can (tenant, profile, channel type, groups of the channel), writes
 * a group_operations row and answers 202 with it; the steps then run one after the other in this
 * process (the one that holds the WhatsApp session in a single-process deployment), with
 * GROUP_OPERATION_DELAY_MS between WhatsApp calls, each step's outcome appended to `results`,
 * announced as `group:operation` to the user who started it, and readable with
 * GET /groups/operations/{id}. One step failing (not an admin of that group, a number not on
 * WhatsApp) does not stop the others. An operation interrupted by a restart is never resumed
 * (WhatsApp changes are not safe to repeat blindly): it is marked failed once it has been running
 * for 6 hours, when the tenant starts another (`failStale`).
 */
export class GroupOperationsService {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: OperationDeps) {}

  /** Resolves when the operations started in this process have finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async get(auth: AuthContext, id: string): Promise<GroupOperationDto> {
    const [row] = (await this.deps.dataSource.query(`SELECT * FROM group_operations WHERE id = $1`, [id])) as OperationRow[];
    return present(authorizeGroupRow(auth, row));
  }

  async list(auth: AuthContext): Promise<GroupOperationDto[]> {
    authorizeGroups(auth);
    const rows: OperationRow[] = await this.deps.dataSource.query(
      `SELECT * FROM group_operations WHERE "tenantId" = $1 ORDER BY "createdAt" DESC LIMIT 20`,
      [auth.tenantId],
    );
    return rows.map(present);
  }

  private async chosenGroups(auth: AuthContext, whatsappId: number, groupIds: number[]): Promise<{ groups: ChannelGroupsApi; rows: GroupRow[] }> {
    const { groups, channel } = await loadGroupChannel(this.deps, auth.tenantId, whatsappId);
    const unique = [...new Set(groupIds)];
    const rows = await groupsByIds(this.deps.dataSource, auth.tenantId, channel.id, unique);
    if (rows.length !== unique.length) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'groupIds', message: 'há grupos que não são desta conexão (sincronize os grupos e escolha de novo)' }],
      });
    }
    return { groups, rows };
  }

  /** massagrupos: new title, description and/or picture for each chosen group. */
  async update(auth: AuthContext, input: GroupUpdateOperationInput): Promise<GroupOperationDto> {
    authorizeGroups(auth);
    const { groups, rows } = await this.chosenGroups(auth, input.whatsappId, input.groupIds);
    const image = input.imageBase64 ? Buffer.from(input.imageBase64, 'base64') : null;
    const steps: Step[] = rows.map((g) => ({
      target: g.subject || g.jid,
      run: async () => {
        const changed: string[] = [];
        if (input.subject !== undefined) {
          await groups.setSubject(g.jid, input.subject);
          changed.push('título');
        }
        if (input.description !== undefined) {
          await this.pause();
          await groups.setDescription(g.jid, input.description);
          changed.push('descrição');
        }
        if (image) {
          await this.pause();
          await groups.setPicture(g.jid, image);
          changed.push('imagem');
        }
        await storeGroups(this.deps, { id: g.channelId, tenantId: g.tenantId }, [
          { id: g.jid, ...(input.subject !== undefined ? { subject: input.subject } : {}), ...(input.description !== undefined ? { description: input.description } : {}) },
        ]);
        return { message: `Alterado: ${changed.join(', ')}.` };
      },
    }));
    return this.start(auth, input.whatsappId, 'update', steps);
  }

  /** massagrupos2: `quantity` new groups with these participants (numbered names when more than one). */
  async create(auth: AuthContext, input: GroupCreateOperationInput): Promise<GroupOperationDto> {
    authorizeGroups(auth);
    const { groups, channel } = await loadGroupChannel(this.deps, auth.tenantId, input.whatsappId);
    const steps: Step[] = Array.from({ length: input.quantity }, (_, i) => {
      const name = input.quantity > 1 ? `${input.name} ${i + 1}` : input.name;
      return {
        target: name,
        run: async () => {
          const group = await groups.create(name, input.participants);
          if (input.description) {
            await this.pause();
            await groups.setDescription(group.id, input.description).catch(() => undefined);
            group.description = input.description;
          }
          await storeGroups(this.deps, channel, [group]);
          return { message: `Grupo criado com ${group.participants.length} participantes.`, groupJid: group.id };
        },
      };
    });
    return this.start(auth, input.whatsappId, 'create', steps);
  }

  /** massausuarios: add, remove, promote or demote the numbers in each chosen group. */
  async participants(auth: AuthContext, input: GroupParticipantsOperationInput): Promise<GroupOperationDto> {
    authorizeGroups(auth);
    const { groups, rows } = await this.chosenGroups(auth, input.whatsappId, input.groupIds);
    const numbers = [...new Set(input.numbers)];
    const steps: Step[] = rows.map((g) => ({
      target: g.subject || g.jid,
      run: async () => {
        const answers = await groups.updateParticipants(g.jid, numbers, input.action);
        const failed = answers.filter((a) => !a.ok);
        const fresh = await groups.get(g.jid).catch(() => null);
        if (fresh) await storeGroups(this.deps, { id: g.channelId, tenantId: g.tenantId }, [fresh]);
        if (failed.length === answers.length && answers.length > 0) {
          throw new Error(`nenhum número aceito (${failed.map((a) => `${a.id.split('@')[0]}: ${a.status}`).join(', ')})`);
        }
        return {
          ok: true,
          message:
            failed.length === 0
              ? `${answers.length} número(s) processado(s).`
              : `${answers.length - failed.length} de ${answers.length} processado(s); recusados: ${failed.map((a) => `${a.id.split('@')[0]} (${a.status})`).join(', ')}.`,
        };
      },
    }));
    return this.start(auth, input.whatsappId, 'participants', steps);
  }

  private pause(): Promise<void> {
    return this.deps.config.groupOperationDelayMs > 0 ? sleep(this.deps.config.groupOperationDelayMs) : Promise.resolve();
  }

  private async start(auth: AuthContext, channelId: number, kind: GroupOperationKind, steps: Step[]): Promise<GroupOperationDto> {
    await this.failStale(auth.tenantId);
    const id = randomUUID();
    const [row] = (await this.deps.dataSource.query(
      `INSERT INTO group_operations (id, "tenantId", "channelId", "userId", kind, status, total) VALUES ($1, $2, $3, $4, $5, 'running', $6) RETURNING *`,
      [id, auth.tenantId, channelId, auth.userId, kind, steps.length],
    )) as OperationRow[];
    const task = this.run(row, steps).catch((err) => this.deps.logger.error({ err, operationId: id }, 'group operation failed'));
    this.running.add(task);
    void task.finally(() => this.running.delete(task));
    return present(row);
  }

  private async run(row: OperationRow, steps: Step[]): Promise<void> {
    let status: OperationRow['status'] = 'done';
    let error: string | null = null;
    for (const [i, step] of steps.entries()) {
      if (i > 0) await this.pause();
      let result: GroupOperationResult;
      try {
        const outcome = (await step.run()) ?? {};
        result = { target: step.target, ok: true, message: 'Concluído.', ...outcome };
      } catch (err) {
        result = { target: step.target, ok: false, message: failureText(err) };
        // The session went away: the remaining steps would all fail the same way.
        if (err instanceof AppError && (err.code === 'ERR_WAPP_NOT_INITIALIZED' || err.code === 'ERR_WAPP_INITIALIZED')) {
          status = 'failed';
          error = result.message;
        }
      }
      await this.progress(row, result, i === steps.length - 1 || status === 'failed' ? { status, error } : null);
      if (status === 'failed') return;
    }
    if (steps.length === 0) await this.progress(row, null, { status, error });
  }

  private async progress(row: OperationRow, result: GroupOperationResult | null, end: { status: OperationRow['status']; error: string | null } | null) {
    await this.deps.events.transaction(async (tx, emit) => {
      const [updated] = (
        (await tx.query(
          `UPDATE group_operations SET done = done + $2, results = results || $3::jsonb,
                  status = COALESCE($4, status), error = COALESCE($5, error), "finishedAt" = CASE WHEN $4::text IS NULL THEN NULL ELSE now() END
            WHERE id = $1 RETURNING *`,
          [row.id, result ? 1 : 0, JSON.stringify(result ? [result] : []), end?.status ?? null, end?.error ?? null],
        )) as [OperationRow[], number]
      )[0];
      if (updated && row.userId !== null) {
        await emit(row.tenantId, SOCKET_EVENTS.groupOperation, present(updated), { scope: 'user', userId: row.userId });
      }
    });
  }

  /** Operations of the tenant left running by a process that stopped (none of this process's). */
  private async failStale(tenantId: number): Promise<void> {
    await this.deps.dataSource.query(
      `UPDATE group_operations SET status = 'failed', error = 'Interrompida (o servidor reiniciou).', "finishedAt" = now()
        WHERE "tenantId" = $1 AND status = 'running' AND "createdAt" < now() - interval '6 hours'`,
      [tenantId],
    );
  }
}
