import type { FlowDefinition } from '@shared/schemas/chatflow';

/**
 * Undo for the builder: the definitions before each edit (whole definitions, so an undo can
 * never leave the canvas and the panel out of step). A new edit clears what was undone.
 */
export interface FlowHistory {
  past: FlowDefinition[];
  present: FlowDefinition;
  future: FlowDefinition[];
}

export const HISTORY_LIMIT = 100;

export type FlowHistoryAction =
  | { type: 'edit'; flow: FlowDefinition }
  | { type: 'undo' }
  | { type: 'redo' }
  /** A loaded or imported definition: a fresh start, nothing to undo. */
  | { type: 'reset'; flow: FlowDefinition };

export const startHistory = (flow: FlowDefinition): FlowHistory => ({ past: [], present: flow, future: [] });

export function flowHistoryReducer(state: FlowHistory, action: FlowHistoryAction): FlowHistory {
  switch (action.type) {
    case 'edit':
      // An edit that changed nothing (same object) is not a step to undo.
      if (action.flow === state.present) return state;
      return { past: [...state.past, state.present].slice(-HISTORY_LIMIT), present: action.flow, future: [] };
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return { past: state.past.slice(0, -1), present: previous, future: [state.present, ...state.future] };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return { past: [...state.past, state.present], present: next, future: rest };
    }
    case 'reset':
      return startHistory(action.flow);
  }
}

export const canUndo = (state: FlowHistory): boolean => state.past.length > 0;
export const canRedo = (state: FlowHistory): boolean => state.future.length > 0;
