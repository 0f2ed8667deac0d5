/**
 * How a CRM catalog event (`<x>:update` / `<x>:delete`, docs/api.md) changes a cached list, as a
 * pure function so it is tested without a store. The server sends
 * `{action: 'create' | 'update', <key>: item}`, `{action: 'reorder', ids}` or
 * `{action: 'delete', id}`; the cached list keeps the server's order (names, or positions).
 */

export interface CatalogItem {
  id: number;
}

export interface CatalogListRules<T extends CatalogItem> {
  /** Payload key of the item (`queue`, `tag`, `fastReply`...). */
  key: string;
  /** The server's list order, so an upsert lands where a refetch would put it. */
  compare(a: T, b: T): number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** `lower(name), id`: the order of queues, tags, teams and demands. */
export const byName = <T extends CatalogItem & { name: string }>(a: T, b: T): number =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;

/** `position, id`: the order of kanban columns and lanes. */
export const byPosition = <T extends CatalogItem & { position: number }>(a: T, b: T): number =>
  a.position - b.position || a.id - b.id;

/**
 * The list after the event, or null when the event cannot be applied to this list (a reorder
 * naming ids the cache does not hold, a malformed payload): the caller then refetches.
 */
export function applyCatalogEvent<T extends CatalogItem>(
  list: readonly T[],
  payload: unknown,
  rules: CatalogListRules<T>,
): T[] | null {
  if (!isRecord(payload)) return null;
  switch (payload.action) {
    case 'create':
    case 'update': {
      const item = payload[rules.key];
      if (!isRecord(item) || !isId(item.id)) return null;
      const next = list.filter((existing) => existing.id !== item.id);
      next.push(item as unknown as T);
      return next.sort(rules.compare);
    }
    case 'delete':
      return isId(payload.id) ? list.filter((existing) => existing.id !== payload.id) : null;
    case 'reorder':
      return reorderByIds(list, payload.ids);
    default:
      return null;
  }
}

/**
 * The list in the order of `ids`, positions rewritten 0..n-1 (what PUT .../reorder answers).
 * Null unless `ids` names every cached item exactly once.
 */
export function reorderByIds<T extends CatalogItem>(list: readonly T[], ids: unknown): T[] | null {
  if (!Array.isArray(ids) || ids.length !== list.length || !ids.every(isId)) return null;
  const byId = new Map(list.map((item) => [item.id, item]));
  if (new Set(ids).size !== ids.length || !ids.every((id) => byId.has(id))) return null;
  return ids.map((id, position) => {
    const item = byId.get(id)!;
    return 'position' in item ? { ...item, position } : item;
  });
}
