import { DEFAULT_TICKET_PAGE } from '@shared/limits';
import type { Profile } from '@shared/profiles';
import type { Ticket, TicketListFilter, TicketStatus } from '../../api/tickets.api';

/**
 * The attendance filters beyond the tab and the search (spec section 3, "Attendance filter"):
 * how they are read from and written to the user's `filtrosAtendimento`, and how they become the
 * query string of GET /tickets. Pure and unit-tested.
 */
export interface AttendanceFilters {
  queuesIds: number[];
  whatsappIds: number[];
  selectedUser: number[];
  tags: number[];
  kanbanIds: number[];
  showAll: boolean;
  withUnreadMessages: boolean;
  isNotAssignedUser: boolean;
  includeNotQueueDefined: boolean;
}

export type FilterListKey = 'queuesIds' | 'whatsappIds' | 'selectedUser' | 'tags' | 'kanbanIds';
export type FilterFlagKey = 'showAll' | 'withUnreadMessages' | 'isNotAssignedUser' | 'includeNotQueueDefined';

export const FILTER_LIST_KEYS: readonly FilterListKey[] = ['queuesIds', 'whatsappIds', 'selectedUser', 'tags', 'kanbanIds'];
export const FILTER_FLAG_KEYS: readonly FilterFlagKey[] = ['showAll', 'withUnreadMessages', 'isNotAssignedUser', 'includeNotQueueDefined'];

/** The server's defaults (GET /tickets): nothing narrowed, tickets without a queue included. */
export const DEFAULT_FILTERS: AttendanceFilters = {
  queuesIds: [],
  whatsappIds: [],
  selectedUser: [],
  tags: [],
  kanbanIds: [],
  showAll: false,
  withUnreadMessages: false,
  isNotAssignedUser: false,
  includeNotQueueDefined: true,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Ids as saved by this client or another one (numbers, numeric strings, `{id}` objects, `'1,2'`). */
function readIds(value: unknown): number[] {
  if (typeof value === 'number') value = [value];
  if (typeof value === 'string') value = value.split(',').map((part) => part.trim());
  if (!Array.isArray(value)) return [];
  const ids = value
    .map((item) => (isRecord(item) ? item.id : item))
    .map((item) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item))
    .filter((item): item is number => typeof item === 'number' && Number.isInteger(item) && item > 0);
  return [...new Set(ids)];
}

const readFlag = (value: unknown, fallback: boolean): boolean =>
  typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : fallback;

/** The saved `filtrosAtendimento` (any shape) as filters; unknown or broken values fall back to the defaults. */
export function readSavedFilters(saved: unknown, profile?: Profile | null): AttendanceFilters {
  const source = isRecord(saved) ? saved : {};
  const filters = { ...DEFAULT_FILTERS };
  for (const key of FILTER_LIST_KEYS) filters[key] = readIds(source[key]);
  for (const key of FILTER_FLAG_KEYS) filters[key] = readFlag(source[key], DEFAULT_FILTERS[key]);
  // showAll belongs to administrators and supervisors (spec section 6); a saved one of another profile is ignored.
  if (profile !== undefined && !canShowAll(profile)) filters.showAll = false;
  return filters;
}

/**
 * What PUT /users/{id}/configs receives: the previous saved object with our keys replaced, so
 * keys another client keeps there (status tabs, old-ticket days…) survive.
 */
export function toSavedFilters(filters: AttendanceFilters, previous: unknown): Record<string, unknown> {
  const base = isRecord(previous) ? { ...previous } : {};
  for (const key of FILTER_LIST_KEYS) base[key] = [...filters[key]].sort((a, b) => a - b);
  for (const key of FILTER_FLAG_KEYS) base[key] = filters[key];
  // The stored schema keeps selectedUser as one value (the anchor's single user): an id, several as '1,2', or null.
  const users = base.selectedUser as number[];
  base.selectedUser = users.length === 0 ? null : users.length === 1 ? users[0] : users.join(',');
  return base;
}

/** Adds or removes one id of a list filter (a new array: state-friendly). */
export function toggleFilterId(filters: AttendanceFilters, key: FilterListKey, id: number): AttendanceFilters {
  const list = filters[key];
  return { ...filters, [key]: list.includes(id) ? list.filter((x) => x !== id) : [...list, id] };
}

/** How many filters narrow the list (the badge on the filter button). */
export function activeFilterCount(filters: AttendanceFilters): number {
  let count = 0;
  for (const key of FILTER_LIST_KEYS) if (filters[key].length > 0) count += 1;
  for (const key of FILTER_FLAG_KEYS) if (filters[key] !== DEFAULT_FILTERS[key]) count += 1;
  return count;
}

/** Administrators and supervisors may switch showAll on (spec section 6). */
export const canShowAll = (profile: Profile | null | undefined): boolean =>
  profile === 'admin' || profile === 'super' || profile === 'superadmin';

/** Mass actions are for administrators (spec section 6, docs/api.md). */
export const canUseMassActions = (profile: Profile | null | undefined): boolean => profile === 'admin' || profile === 'superadmin';

/** The list filter of a tab and search, with the saved filters. */
export function listFilterOf(status: TicketStatus[], searchParam: string, filters: AttendanceFilters): TicketListFilter {
  return { status, searchParam, ...filters };
}

const sortedIds = (ids: readonly number[] | undefined) => [...(ids ?? [])].sort((a, b) => a - b);

/** The one cache key of a list filter (the same filter in another order is the same list). */
export function listFilterKey(filter: TicketListFilter): string {
  return JSON.stringify([
    [...filter.status].sort(),
    filter.searchParam.trim(),
    ...FILTER_LIST_KEYS.map((key) => sortedIds(filter[key])),
    ...FILTER_FLAG_KEYS.map((key) => filter[key] ?? DEFAULT_FILTERS[key]),
  ]);
}

/** GET /tickets query of a filter: ids as `1,2`; only what differs from the server's defaults. */
export function ticketListParams(filter: TicketListFilter): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = { status: filter.status.join(',') };
  const search = filter.searchParam.trim();
  if (search) params.searchParam = search;
  for (const key of FILTER_LIST_KEYS) {
    const ids = sortedIds(filter[key]);
    if (ids.length) params[key] = ids.join(',');
  }
  for (const key of FILTER_FLAG_KEYS) {
    const value = filter[key] ?? DEFAULT_FILTERS[key];
    if (value !== DEFAULT_FILTERS[key]) params[key] = value;
  }
  return params;
}

/**
 * Spec section 4: "A pending ticket opened in focus is shown as open". The status the list shows
 * for a row: the focused pending ticket reads as open.
 */
export function listedStatus(ticket: Pick<Ticket, 'id' | 'status'>, focusedId: number | null): TicketStatus {
  return ticket.status === 'pending' && ticket.id === focusedId ? 'open' : ticket.status;
}

/**
 * The rows of a tab with the focused ticket: the open tab also lists the focused pending ticket
 * (shown as open), in the list's order; every other tab is the server's list as is.
 */
export function rowsWithFocused(tickets: readonly Ticket[], statuses: readonly TicketStatus[], focused: Ticket | null): readonly Ticket[] {
  if (!focused || focused.status !== 'pending' || statuses.includes('pending') || !statuses.includes('open')) return tickets;
  if (tickets.some((t) => t.id === focused.id)) return tickets;
  const at = (t: Ticket) => (t.lastMessageAt ? Date.parse(t.lastMessageAt) : 0);
  const index = tickets.findIndex((t) => at(t) < at(focused) || (at(t) === at(focused) && t.id < focused.id));
  const rows = [...tickets];
  rows.splice(index < 0 ? rows.length : index, 0, focused);
  return rows;
}

/** The chat route's pageNumber (spec section 2): the list loads at least that many pages. */
export function pageNumberOf(raw: string | undefined): number {
  const n = raw && /^\d+$/.test(raw) ? Number(raw) : DEFAULT_TICKET_PAGE;
  return Math.min(Math.max(n, DEFAULT_TICKET_PAGE), 50);
}

/** Pages of `pageSize` needed to show page `pageNumber`: true while more should be loaded. */
export const needsMorePages = (pageNumber: number, loadedRows: number, pageSize: number, hasMore: boolean): boolean =>
  hasMore && loadedRows < pageNumber * pageSize;
