import { describe, expect, it } from 'vitest';
import { newFlowDefinition } from '@shared/schemas/chatflow';
import { addStep } from './flow-graph';
import { canRedo, canUndo, flowHistoryReducer, HISTORY_LIMIT, startHistory } from './flow-history';

describe('builder undo history', () => {
  it('undoes and redoes whole definitions; a new edit drops the redo', () => {
    const first = newFlowDefinition();
    const second = addStep(first).flow;
    const third = addStep(second).flow;
    let state = startHistory(first);
    expect(canUndo(state)).toBe(false);
    state = flowHistoryReducer(state, { type: 'edit', flow: second });
    state = flowHistoryReducer(state, { type: 'edit', flow: third });
    state = flowHistoryReducer(state, { type: 'undo' });
    expect(state.present).toBe(second);
    expect(canRedo(state)).toBe(true);
    state = flowHistoryReducer(state, { type: 'redo' });
    expect(state.present).toBe(third);
    state = flowHistoryReducer(state, { type: 'undo' });
    state = flowHistoryReducer(state, { type: 'undo' });
    expect(state.present).toBe(first);
    expect(flowHistoryReducer(state, { type: 'undo' })).toBe(state);
    const other = addStep(first, { x: 0, y: 500 }).flow;
    state = flowHistoryReducer(state, { type: 'edit', flow: other });
    expect(canRedo(state)).toBe(false);
    expect(state.past).toEqual([first]);
  });

  it('ignores edits that changed nothing, keeps at most the limit, and starts over on reset', () => {
    const first = newFlowDefinition();
    let state = startHistory(first);
    expect(flowHistoryReducer(state, { type: 'edit', flow: first })).toBe(state);
    let flow = first;
    for (let i = 0; i < HISTORY_LIMIT + 10; i += 1) {
      flow = { ...flow };
      state = flowHistoryReducer(state, { type: 'edit', flow });
    }
    expect(state.past).toHaveLength(HISTORY_LIMIT);
    state = flowHistoryReducer(state, { type: 'reset', flow: first });
    expect(state).toEqual({ past: [], present: first, future: [] });
  });
});
