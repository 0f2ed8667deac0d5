import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/**
 * Who sees and changes which task (one rule for reads, writes, comments and realtime):
 * - a task of another tenant does not exist for the caller (404);
 * - supervisors and administrators (super, admin, superadmin of the tenant) see and change
 *   every task of their tenant;
 * - agents (user) see and change the tasks they own or created; another agent's task of the
 *   same tenant is refused (403). Any profile may create a task and give it to any user of its
 *   tenant (the creator keeps seeing it).
 * - a comment is removed only by its author.
 */
export interface TaskAccessFacts {
  tenantId: number;
  ownerId: number | null;
  createdById: number | null;
}

export const seesAllTasks = (auth: AuthContext): boolean => (SUPERVISOR_PROFILES as readonly string[]).includes(auth.profile);

export function authorizeTask<T extends TaskAccessFacts>(auth: AuthContext, task: T | null | undefined): T {
  if (!task || task.tenantId !== auth.tenantId) throw new AppError('ERR_NOT_FOUND', { message: 'Tarefa não encontrada.' });
  if (seesAllTasks(auth) || task.ownerId === auth.userId || task.createdById === auth.userId) return task;
  throw new AppError('ERR_NO_PERMISSION');
}

export function authorizeCommentRemoval(auth: AuthContext, comment: { userId: number | null }): void {
  if (comment.userId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
}
