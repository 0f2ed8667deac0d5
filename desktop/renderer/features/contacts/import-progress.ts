import type {
  ContactImportDto,
  ContactImportErrorDto,
  ContactImportStatus,
  ContactImportSummaryDto,
} from '@shared/schemas/contacts';

/**
 * The state of one running import as the dialog shows it. Two sources feed it: the socket event
 * `contactImport:progress` (live, about once a second) and GET /contacts/upload/{id} (polled
 * every 2 s only while the socket is silent, and once at the end for the rejected lines, which
 * the event does not carry). Answers can cross: a poll sent before an event may land after
 * it, so the state only moves forward.
 */

/** Poll when the socket has said nothing for this long (and at this pace). */
export const IMPORT_POLL_INTERVAL_MS = 2000;

export interface ImportProgressState {
  importId: string;
  summary: ContactImportSummaryDto | null;
  /** The rejected lines: null until the finished import has been read with them. */
  errors: ContactImportErrorDto[] | null;
  /** When the socket last told us something about this import (ms); null: never. */
  lastLiveAt: number | null;
}

export type ImportProgressAction =
  { type: 'live'; summary: ContactImportSummaryDto; at: number } | { type: 'fetched'; record: ContactImportDto };

export const initialImportProgress = (importId: string): ImportProgressState => ({
  importId,
  summary: null,
  errors: null,
  lastLiveAt: null,
});

const STATUS_RANK: Record<ContactImportStatus, number> = { queued: 0, processing: 1, done: 2, failed: 2 };

export const isFinishedStatus = (status: ContactImportStatus | undefined): boolean => status === 'done' || status === 'failed';

/** True when `next` is at least as far along as `current` (status first, then rows read). */
function isNotBehind(current: ContactImportSummaryDto | null, next: ContactImportSummaryDto): boolean {
  if (!current) return true;
  const rank = STATUS_RANK[next.status] - STATUS_RANK[current.status];
  if (rank !== 0) return rank > 0;
  return next.processed >= current.processed;
}

function summaryOf(record: ContactImportDto): ContactImportSummaryDto {
  const { errors: _errors, ...summary } = record;
  return summary;
}

export function importProgressReducer(state: ImportProgressState, action: ImportProgressAction): ImportProgressState {
  switch (action.type) {
    case 'live': {
      if (action.summary.id !== state.importId) return state;
      const summary = isNotBehind(state.summary, action.summary) ? action.summary : state.summary;
      return { ...state, summary, lastLiveAt: action.at };
    }
    case 'fetched': {
      if (action.record.id !== state.importId) return state;
      const fresh = summaryOf(action.record);
      const ahead = isNotBehind(state.summary, fresh);
      const summary = ahead ? fresh : state.summary;
      // The lines are final only once the import is: a running import's list is still growing.
      const errors = ahead && isFinishedStatus(fresh.status) ? action.record.errors : state.errors;
      return { ...state, summary, errors };
    }
  }
}

export const isImportFinished = (state: ImportProgressState): boolean => isFinishedStatus(state.summary?.status);

/** The finished import still has to be read once for its rejected lines. */
export const needsFinalRead = (state: ImportProgressState): boolean => isImportFinished(state) && state.errors === null;

/** Poll while running and the socket has been silent for a poll interval (or never spoke). */
export function shouldPoll(state: ImportProgressState, now: number): boolean {
  if (isImportFinished(state)) return false;
  return state.lastLiveAt === null || now - state.lastLiveAt >= IMPORT_POLL_INTERVAL_MS;
}

/** 0..100 for the progress bar; a finished import is full whatever its percent says. */
export function progressValue(summary: ContactImportSummaryDto | null): number {
  if (!summary) return 0;
  if (isFinishedStatus(summary.status)) return 100;
  return Math.max(0, Math.min(100, summary.percent));
}
