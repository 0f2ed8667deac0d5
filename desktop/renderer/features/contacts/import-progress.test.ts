import type { ContactImportDto, ContactImportSummaryDto } from '@shared/schemas/contacts';
import { describe, expect, it } from 'vitest';
import {
  IMPORT_POLL_INTERVAL_MS,
  importProgressReducer,
  initialImportProgress,
  isImportFinished,
  needsFinalRead,
  progressValue,
  shouldPoll,
} from './import-progress';

const ID = '6f1c1d2e-1111-4c3b-9a1e-000000000001';

const summary = (patch: Partial<ContactImportSummaryDto> = {}): ContactImportSummaryDto => ({
  id: ID,
  status: 'processing',
  fileName: 'contatos.csv',
  dateFormat: 'dd/MM/yyyy',
  total: 0,
  processed: 0,
  created: 0,
  updated: 0,
  duplicates: 0,
  rejected: 0,
  percent: 0,
  failureReason: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  finishedAt: null,
  ...patch,
});

const record = (patch: Partial<ContactImportDto> = {}): ContactImportDto => ({ ...summary(patch), errors: [], ...patch });

describe('importProgressReducer', () => {
  it('follows live events and remembers when the socket last spoke', () => {
    let state = initialImportProgress(ID);
    state = importProgressReducer(state, { type: 'live', summary: summary({ processed: 10, percent: 20 }), at: 1000 });
    expect(state.summary?.processed).toBe(10);
    expect(state.lastLiveAt).toBe(1000);
  });

  it('never goes back when an older answer lands after a newer one', () => {
    let state = initialImportProgress(ID);
    state = importProgressReducer(state, { type: 'live', summary: summary({ processed: 50, percent: 60 }), at: 1000 });
    state = importProgressReducer(state, { type: 'fetched', record: record({ processed: 20, percent: 25 }) });
    expect(state.summary?.processed).toBe(50);
    state = importProgressReducer(state, {
      type: 'live',
      summary: summary({ status: 'done', processed: 80, percent: 100 }),
      at: 2000,
    });
    state = importProgressReducer(state, { type: 'live', summary: summary({ processed: 70 }), at: 2100 });
    expect(state.summary?.status).toBe('done');
    expect(state.lastLiveAt).toBe(2100);
  });

  it('takes the rejected lines only from a finished import', () => {
    let state = initialImportProgress(ID);
    state = importProgressReducer(state, {
      type: 'fetched',
      record: record({ processed: 2, errors: [{ line: 2, reason: 'Número ausente' }] }),
    });
    expect(state.errors).toBeNull();
    state = importProgressReducer(state, {
      type: 'live',
      summary: summary({ status: 'done', processed: 4, rejected: 1 }),
      at: 5,
    });
    expect(needsFinalRead(state)).toBe(true);
    state = importProgressReducer(state, {
      type: 'fetched',
      record: record({ status: 'done', processed: 4, rejected: 1, errors: [{ line: 2, reason: 'Número ausente' }] }),
    });
    expect(state.errors).toEqual([{ line: 2, reason: 'Número ausente' }]);
    expect(needsFinalRead(state)).toBe(false);
  });

  it('ignores other imports (the event goes to the user, who may run two)', () => {
    const state = initialImportProgress(ID);
    expect(importProgressReducer(state, { type: 'live', summary: summary({ id: 'other' }), at: 1 })).toBe(state);
    expect(importProgressReducer(state, { type: 'fetched', record: record({ id: 'other' }) })).toBe(state);
  });

  it('treats a failed import as finished', () => {
    const state = importProgressReducer(initialImportProgress(ID), {
      type: 'fetched',
      record: record({ status: 'failed', failureReason: 'Cabeçalho sem Nome e Número', errors: [] }),
    });
    expect(isImportFinished(state)).toBe(true);
    expect(state.errors).toEqual([]);
  });
});

describe('shouldPoll', () => {
  it('polls while the socket is silent and stops when finished', () => {
    let state = initialImportProgress(ID);
    expect(shouldPoll(state, 0)).toBe(true);
    state = importProgressReducer(state, { type: 'live', summary: summary(), at: 10_000 });
    expect(shouldPoll(state, 10_000 + IMPORT_POLL_INTERVAL_MS - 1)).toBe(false);
    expect(shouldPoll(state, 10_000 + IMPORT_POLL_INTERVAL_MS)).toBe(true);
    state = importProgressReducer(state, { type: 'live', summary: summary({ status: 'done' }), at: 20_000 });
    expect(shouldPoll(state, 99_999)).toBe(false);
  });
});

describe('progressValue', () => {
  it('clamps the percent and fills the bar when finished', () => {
    expect(progressValue(null)).toBe(0);
    expect(progressValue(summary({ percent: 42 }))).toBe(42);
    expect(progressValue(summary({ percent: 140 }))).toBe(100);
    expect(progressValue(summary({ status: 'done', percent: 97 }))).toBe(100);
  });
});
