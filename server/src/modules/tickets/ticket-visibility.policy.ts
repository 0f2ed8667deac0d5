import { isAdminProfile, type Profile } from '@shared/profiles';
import { VISIBILITY_SETTINGS, type VisibilitySettingKey } from '@shared/settings';
import type { AuthContext } from '../../core/auth-context';
import type { TicketAudienceFacts } from '../../db/entities';

/**
 * Ticket visibility (spec section 6): the ONE rule deciding who sees which ticket. It exists in
 * two forms kept side by side in this file, a pure predicate (socket fan-out, GET /sync, single
 * loads) and SQL conditions (the list and its count); a table-driven test runs every profile and
 * setting combination through both and requires the same ticket ids.
 *
 * Privileged viewers: admin and superadmin profiles (and support e-mails, spec section 6), and
 * supervisors ('super') unless the tenant setting `supervisorAdmin` is ENABLED: enabling it takes
 * the supervisors' administrator privileges away and they follow the user logic. (The default,
 * disabled, keeps spec section 6's "admin and super may see all tickets when showAll is on".)
 *
 * - A privileged viewer may see every ticket of the tenant. `showAll` only shapes the list: off,
 *   the list is their personal view (their own tickets, their queues, tickets without a queue,
 *   and what the tenant opens to all).
 * - Anyone sees the tickets assigned to them.
 * - mostrarGruposParaTodos: group tickets are visible to all. mostrarFechadoParaTodos: closed
 *   tickets are visible to all.
 * - Otherwise a user sees the tickets of their queues (pending ones without a user included),
 *   plus tickets without a queue when `nullticket` is on; with DirectTicketsToWallets on, a
 *   ticket whose contact has wallet owners is seen by those owners only (in any queue).
 *   Within that scope, NotViewAssignedTickets hides tickets assigned to someone else and
 *   NotViewTicketsChatBot hides tickets the chatbot is handling.
 */

export type VisibilityFlags = Record<VisibilitySettingKey, boolean>;

export interface TicketViewer {
  tenantId: number;
  userId: number;
  profile: Profile;
  email: string;
  /** Queues the user belongs to. */
  queueIds: number[];
  flags: VisibilityFlags;
}

export const VISIBILITY_KEYS = Object.keys(VISIBILITY_SETTINGS) as VisibilitySettingKey[];

/** The visibility switches out of the tenant's settings map (`enabled` / `disabled`). */
export function visibilityFlags(settings: Record<string, string | undefined>): VisibilityFlags {
  const flags = {} as VisibilityFlags;
  for (const key of VISIBILITY_KEYS) flags[key] = (settings[key] ?? VISIBILITY_SETTINGS[key]) === 'enabled';
  return flags;
}

/** Administrator rights over tickets: see everything, act on tickets of others. */
export function isPrivilegedViewer(viewer: Pick<TicketViewer, 'profile' | 'email' | 'flags'>): boolean {
  if (isAdminProfile(viewer.profile, viewer.email)) return true;
  return viewer.profile === 'super' && !viewer.flags.supervisorAdmin;
}

export interface VisibilityOptions {
  /** The list's showAll switch; permission checks (single load, events) pass true. */
  showAll: boolean;
}

/** The pure predicate. The caller has already checked that the ticket is of the viewer's tenant. */
export function canSeeTicket(
  viewer: TicketViewer,
  ticket: TicketAudienceFacts,
  opts: VisibilityOptions = { showAll: true },
): boolean {
  const f = viewer.flags;
  if (isPrivilegedViewer(viewer)) {
    if (opts.showAll) return true;
    return (
      ticket.userId === viewer.userId ||
      (f.mostrarGruposParaTodos && ticket.isGroup) ||
      (f.mostrarFechadoParaTodos && ticket.status === 'closed') ||
      ticket.queueId === null ||
      viewer.queueIds.includes(ticket.queueId)
    );
  }
  if (ticket.userId === viewer.userId) return true;
  if (f.mostrarGruposParaTodos && ticket.isGroup) return true;
  if (f.mostrarFechadoParaTodos && ticket.status === 'closed') return true;
  const owners = ticket.walletUserIds ?? [];
  const inScope =
    f.DirectTicketsToWallets && owners.length > 0
      ? owners.includes(viewer.userId)
      : ticket.queueId === null
        ? f.nullticket
        : viewer.queueIds.includes(ticket.queueId);
  if (!inScope) return false;
  if (f.NotViewAssignedTickets && ticket.userId !== null) return false;
  if (f.NotViewTicketsChatBot && ticket.botActive) return false;
  return true;
}

/**
 * The same rule as SQL over `tickets t` (bind values appended to `params`). Answers null when
 * there is nothing to restrict (privileged with showAll), so the plan stays a plain index walk.
 */
export function visibilitySql(viewer: TicketViewer, opts: VisibilityOptions, params: unknown[]): string | null {
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const f = viewer.flags;
  const privileged = isPrivilegedViewer(viewer);
  if (privileged && opts.showAll) return null;
  const me = bind(viewer.userId);
  const queues = `${bind(viewer.queueIds)}::int[]`;
  const openers = [`t."userId" = ${me}`];
  if (f.mostrarGruposParaTodos) openers.push(`t."isGroup"`);
  if (f.mostrarFechadoParaTodos) openers.push(`t.status = 'closed'`);

  if (privileged) {
    return `(${[...openers, `t."queueId" IS NULL`, `t."queueId" = ANY(${queues})`].join(' OR ')})`;
  }

  const queueScope = `(t."queueId" = ANY(${queues})${f.nullticket ? ` OR t."queueId" IS NULL` : ''})`;
  let scope = queueScope;
  if (f.DirectTicketsToWallets) {
    const hasOwners = `EXISTS (SELECT 1 FROM contact_wallets cw WHERE cw."contactId" = t."contactId")`;
    const isOwner = `EXISTS (SELECT 1 FROM contact_wallets cw WHERE cw."contactId" = t."contactId" AND cw."userId" = ${me})`;
    scope = `(CASE WHEN ${hasOwners} THEN ${isOwner} ELSE ${queueScope} END)`;
  }
  const restricted = [scope];
  if (f.NotViewAssignedTickets) restricted.push(`t."userId" IS NULL`);
  if (f.NotViewTicketsChatBot) restricted.push(`NOT t."botActive"`);
  return `(${[...openers, `(${restricted.join(' AND ')})`].join(' OR ')})`;
}

/**
 * Where the tickets of one status a viewer may see can be, as index access paths (queues, no
 * queue, the viewer's own tickets): a superset of the visible ones, so the list can walk the
 * per-queue and per-user keyset indexes instead of every ticket of the status. Null when the
 * rule opens tickets beyond those paths (showAll, groups or closed tickets for all, wallets).
 */
export interface VisibilityAccessPaths {
  queueIds: number[];
  nullQueue: boolean;
  userId: number;
  /**
   * Every ticket on the queue and no-queue paths is visible (no restriction applies within the
   * scope): counting them needs no other column, so the count can be index-only.
   */
  queuePathsVisible: boolean;
}

export function visibilityAccessPaths(
  viewer: TicketViewer,
  opts: VisibilityOptions,
  status: string,
): VisibilityAccessPaths | null {
  const f = viewer.flags;
  const privileged = isPrivilegedViewer(viewer);
  if (privileged && opts.showAll) return null;
  if (f.mostrarGruposParaTodos || (f.mostrarFechadoParaTodos && status === 'closed')) return null;
  if (!privileged && f.DirectTicketsToWallets) return null;
  return {
    queueIds: viewer.queueIds,
    nullQueue: privileged || f.nullticket,
    userId: viewer.userId,
    queuePathsVisible: privileged || (!f.NotViewAssignedTickets && !f.NotViewTicketsChatBot),
  };
}

/** What the visibility rule needs from the caller, for code paths that have only the session. */
export type ViewerSource = Pick<AuthContext, 'tenantId' | 'userId' | 'profile' | 'email'>;

/** A viewer from stored facts: the user row's queues and the tenant's settings. */
export function buildViewer(
  auth: ViewerSource,
  user: { profile: Profile; email: string; queues: unknown },
  settings: Record<string, string>,
): TicketViewer {
  const queues = Array.isArray(user.queues) ? user.queues.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];
  return {
    tenantId: auth.tenantId,
    userId: auth.userId,
    profile: user.profile,
    email: user.email,
    queueIds: queues,
    flags: visibilityFlags(settings),
  };
}
