import { describe, expect, it } from 'vitest';
import { applyCatalogEvent, byName, byPosition, reorderByIds } from './catalog-cache';

interface Named {
  id: number;
  name: string;
}
interface Positioned {
  id: number;
  name: string;
  position: number;
}

const queues: Named[] = [
  { id: 2, name: 'Comercial' },
  { id: 1, name: 'suporte' },
];
const byNameRules = { key: 'queue', compare: byName<Named> };
const columns: Positioned[] = [
  { id: 7, name: 'Novo', position: 0 },
  { id: 5, name: 'Negociação', position: 1 },
  { id: 9, name: 'Fechado', position: 2 },
];
const byPositionRules = { key: 'kanban', compare: byPosition<Positioned> };

describe('applyCatalogEvent', () => {
  it('inserts a created item where the server orders it (lower(name), id)', () => {
    const next = applyCatalogEvent(queues, { action: 'create', queue: { id: 3, name: 'Financeiro' } }, byNameRules);
    expect(next?.map((q) => q.name)).toEqual(['Comercial', 'Financeiro', 'suporte']);
  });

  it('replaces an updated item and re-sorts it', () => {
    const next = applyCatalogEvent(queues, { action: 'update', queue: { id: 1, name: 'Atendimento' } }, byNameRules);
    expect(next).toEqual([
      { id: 1, name: 'Atendimento' },
      { id: 2, name: 'Comercial' },
    ]);
  });

  it('does not duplicate an item the cache already got from its own write', () => {
    const next = applyCatalogEvent(queues, { action: 'create', queue: { id: 2, name: 'Comercial' } }, byNameRules);
    expect(next).toHaveLength(2);
  });

  it('removes a deleted item', () => {
    expect(applyCatalogEvent(queues, { action: 'delete', id: 2 }, byNameRules)).toEqual([{ id: 1, name: 'suporte' }]);
  });

  it('applies a reorder and rewrites the positions', () => {
    const next = applyCatalogEvent(columns, { action: 'reorder', ids: [9, 7, 5] }, byPositionRules);
    expect(next).toEqual([
      { id: 9, name: 'Fechado', position: 0 },
      { id: 7, name: 'Novo', position: 1 },
      { id: 5, name: 'Negociação', position: 2 },
    ]);
  });

  it('places a new column by its position', () => {
    const next = applyCatalogEvent(
      columns,
      { action: 'create', kanban: { id: 11, name: 'Perdido', position: 3 } },
      byPositionRules,
    );
    expect(next?.map((k) => k.id)).toEqual([7, 5, 9, 11]);
  });

  it('answers null (refetch) for what it cannot apply', () => {
    expect(applyCatalogEvent(queues, null, byNameRules)).toBeNull();
    expect(applyCatalogEvent(queues, { action: 'create', tag: { id: 3, name: 'x' } }, byNameRules)).toBeNull();
    expect(applyCatalogEvent(queues, { action: 'delete', id: 'x' }, byNameRules)).toBeNull();
    expect(applyCatalogEvent(queues, { action: 'rename' }, byNameRules)).toBeNull();
    expect(applyCatalogEvent(columns, { action: 'reorder', ids: [9, 7] }, byPositionRules)).toBeNull();
  });
});

describe('reorderByIds', () => {
  it('needs every cached id exactly once', () => {
    expect(reorderByIds(columns, [9, 9, 5])).toBeNull();
    expect(reorderByIds(columns, [9, 7, 42])).toBeNull();
    expect(reorderByIds(columns, 'nope')).toBeNull();
    expect(reorderByIds(columns, [5, 7, 9])?.map((k) => [k.id, k.position])).toEqual([
      [5, 0],
      [7, 1],
      [9, 2],
    ]);
  });

  it('leaves items without a position as they are', () => {
    expect(reorderByIds(queues, [1, 2])).toEqual([queues[1], queues[0]]);
  });
});
