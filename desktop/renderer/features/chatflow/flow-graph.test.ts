import { describe, expect, it } from 'vitest';
import { FlowDefinitionSchema, newFlowDefinition, validateFlowGraph } from '@shared/schemas/chatflow';
import {
  addStep,
  connectSteps,
  flowToEdges,
  flowToNodes,
  moveInteraction,
  moveStep,
  nextId,
  removeCondition,
  removeInteraction,
  removeStep,
  saveCondition,
  saveInteraction,
  setStartStep,
} from './flow-graph';

describe('flow <-> nodes and edges', () => {
  it('draws a node per step (the start marked) and an edge per condition that leads to a step', () => {
    let flow = newFlowDefinition();
    const added = addStep(flow);
    flow = connectSteps(added.flow, 'inicio', added.stepId);
    flow = saveCondition(flow, added.stepId, { type: 'keyword', values: ['sim'], target: { type: 'queue', queueId: 3 } });
    const nodes = flowToNodes(flow, added.stepId);
    expect(nodes.map((n) => [n.id, n.data.isStart, n.selected])).toEqual([
      ['inicio', true, false],
      ['etapa1', false, true],
    ]);
    const edges = flowToEdges(flow);
    // The starting "any -> close" and the queue target are not edges; the connection is.
    expect(edges).toEqual([
      expect.objectContaining({
        id: 'inicio::c2',
        source: 'inicio',
        target: 'etapa1',
        label: '*',
        data: { stepId: 'inicio', conditionId: 'c2' },
      }),
    ]);
    expect(FlowDefinitionSchema.safeParse(flow).success).toBe(true);
  });

  it('makes a two-step flow that passes the graph checks', () => {
    const { flow, stepId } = addStep(newFlowDefinition());
    const connected = connectSteps(flow, 'inicio', stepId);
    expect(validateFlowGraph(flow).map((p) => p.code)).toEqual(['UNREACHABLE_STEP']);
    expect(validateFlowGraph(connected)).toEqual([]);
    // Connecting the same pair again adds nothing; unknown steps are ignored.
    expect(connectSteps(connected, 'inicio', stepId)).toBe(connected);
    expect(connectSteps(connected, 'inicio', 'nada')).toBe(connected);
  });

  it('removes a step with the conditions that led to it, never the start step', () => {
    const { flow, stepId } = addStep(newFlowDefinition());
    const connected = connectSteps(flow, 'inicio', stepId);
    const removed = removeStep(connected, stepId);
    expect(removed.steps.map((s) => s.id)).toEqual(['inicio']);
    expect(removed.steps[0].conditions.map((c) => c.target.type)).toEqual(['close']);
    expect(removeStep(connected, 'inicio')).toBe(connected);
    const moved = setStartStep(connected, stepId);
    expect(moved.startStepId).toBe(stepId);
    expect(setStartStep(connected, 'nada')).toBe(connected);
  });

  it('adds, replaces, reorders and removes interactions and conditions with fresh ids', () => {
    let flow = newFlowDefinition();
    flow = saveInteraction(flow, 'inicio', { type: 'delay', seconds: 2 });
    expect(flow.steps[0].interactions.map((i) => i.id)).toEqual(['i1', 'i2']);
    flow = saveInteraction(flow, 'inicio', { id: 'i2', type: 'delay', seconds: 5 });
    expect(flow.steps[0].interactions[1]).toEqual({ id: 'i2', type: 'delay', seconds: 5 });
    flow = moveInteraction(flow, 'inicio', 'i2', -1);
    expect(flow.steps[0].interactions.map((i) => i.id)).toEqual(['i2', 'i1']);
    expect(moveInteraction(flow, 'inicio', 'i2', -1).steps[0].interactions.map((i) => i.id)).toEqual(['i2', 'i1']);
    flow = removeInteraction(flow, 'inicio', 'i2');
    expect(flow.steps[0].interactions.map((i) => i.id)).toEqual(['i1']);
    flow = saveCondition(flow, 'inicio', { id: 'c1', type: 'option', values: ['1'], target: { type: 'close' } });
    expect(flow.steps[0].conditions).toEqual([{ id: 'c1', type: 'option', values: ['1'], target: { type: 'close' } }]);
    flow = removeCondition(flow, 'inicio', 'c1');
    expect(flow.steps[0].conditions).toEqual([]);
  });

  it('moves a step to whole pixels, and answers the same definition when nothing moved', () => {
    const flow = newFlowDefinition();
    expect(moveStep(flow, 'inicio', { x: 80, y: 80 })).toBe(flow);
    expect(moveStep(flow, 'inicio', { x: 10.4, y: 20.6 }).steps[0].position).toEqual({ x: 10, y: 21 });
  });

  it('picks the first free id', () => {
    expect(nextId('etapa', ['etapa1', 'etapa3'])).toBe('etapa2');
  });
});
