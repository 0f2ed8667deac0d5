import type { Condition, FlowDefinition, FlowStep, Interaction } from '@shared/schemas/chatflow';

/**
 * The builder's canvas as data: a flow definition <-> React Flow nodes and edges. A node is a
 * step; an edge is a condition whose target is a step (the other targets, queue, user, close and
 * channel, show on the step itself). Every edit is a pure function from one definition to the
 * next, so undo keeps whole definitions and the canvas is always redrawn from the definition.
 */

export interface StepNodeData extends Record<string, unknown> {
  step: FlowStep;
  isStart: boolean;
}

export interface StepNode {
  id: string;
  type: 'step';
  position: { x: number; y: number };
  data: StepNodeData;
  selected?: boolean;
}

export interface ConditionEdgeData extends Record<string, unknown> {
  stepId: string;
  conditionId: string;
}

export interface ConditionEdge {
  id: string;
  source: string;
  target: string;
  label: string;
  markerEnd: { type: 'arrowclosed' };
  data: ConditionEdgeData;
  selected?: boolean;
}

/** A condition or interaction being written: its id once it exists (Omit distributed over the union). */
export type Draft<T> = T extends unknown ? Omit<T, 'id'> & { id?: string } : never;

export const edgeIdOf = (stepId: string, conditionId: string): string => `${stepId}::${conditionId}`;

const OPERATOR_SIGNS = { equals: '=', contains: '∋', empty: '= ∅', notEmpty: '≠ ∅' } as const;

/** A short, language-neutral text of what a condition matches, for its edge and its row in the side panel. */
export function conditionSummary(condition: Condition): string {
  switch (condition.type) {
    case 'keyword':
      return condition.values.map((v) => `"${v}"`).join(', ');
    case 'option':
      return condition.values.map((v) => `#${v}`).join(', ');
    case 'regex':
      return `/${condition.pattern}/`;
    case 'any':
      return '*';
    case 'businessHours':
      return condition.open ? '⏰ ✓' : '⏰ ✗';
    case 'field':
      return `${condition.field} ${OPERATOR_SIGNS[condition.operator]}${condition.value && (condition.operator === 'equals' || condition.operator === 'contains') ? ` ${condition.value}` : ''}`;
  }
}

export function flowToNodes(flow: FlowDefinition, selectedStepId: string | null = null): StepNode[] {
  return flow.steps.map((step) => ({
    id: step.id,
    type: 'step',
    position: step.position,
    data: { step, isStart: step.id === flow.startStepId },
    selected: step.id === selectedStepId,
  }));
}

/** Only conditions that lead to an existing step become edges (a missing one is a problem of the panel). */
export function flowToEdges(flow: FlowDefinition, selectedEdgeId: string | null = null): ConditionEdge[] {
  const ids = new Set(flow.steps.map((s) => s.id));
  return flow.steps.flatMap((step) =>
    step.conditions.flatMap((condition) =>
      condition.target.type === 'step' && ids.has(condition.target.stepId)
        ? [
            {
              id: edgeIdOf(step.id, condition.id),
              source: step.id,
              target: condition.target.stepId,
              label: conditionSummary(condition),
              markerEnd: { type: 'arrowclosed' as const },
              data: { stepId: step.id, conditionId: condition.id },
              selected: edgeIdOf(step.id, condition.id) === selectedEdgeId,
            },
          ]
        : [],
    ),
  );
}

/** `prefix` + the first number not taken by `taken`. */
export function nextId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n += 1) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

const mapStep = (flow: FlowDefinition, stepId: string, change: (step: FlowStep) => FlowStep): FlowDefinition => ({
  ...flow,
  steps: flow.steps.map((step) => (step.id === stepId ? change(step) : step)),
});

/** A new step that waits for the answer, right of the right-most step unless a position is given. */
export function addStep(flow: FlowDefinition, position?: { x: number; y: number }): { flow: FlowDefinition; stepId: string } {
  const id = nextId(
    'etapa',
    flow.steps.map((s) => s.id),
  );
  const right = flow.steps.reduce((max, s) => Math.max(max, s.position.x), 0);
  const step: FlowStep = {
    id,
    name: `Etapa ${id.slice('etapa'.length)}`,
    position: position ?? { x: right + 280, y: 80 },
    interactions: [],
    conditions: [],
    waitsForAnswer: true,
  };
  return { flow: { ...flow, steps: [...flow.steps, step] }, stepId: id };
}

/**
 * Removes a step and the conditions that led to it (they would name a missing step). The start
 * step cannot be removed: choose another start first.
 */
export function removeStep(flow: FlowDefinition, stepId: string): FlowDefinition {
  if (stepId === flow.startStepId || flow.steps.length <= 1) return flow;
  return {
    ...flow,
    steps: flow.steps
      .filter((s) => s.id !== stepId)
      .map((s) => ({
        ...s,
        conditions: s.conditions.filter((c) => !(c.target.type === 'step' && c.target.stepId === stepId)),
      })),
  };
}

export function updateStep(flow: FlowDefinition, stepId: string, patch: Partial<Omit<FlowStep, 'id'>>): FlowDefinition {
  return mapStep(flow, stepId, (step) => ({ ...step, ...patch }));
}

export function moveStep(flow: FlowDefinition, stepId: string, position: { x: number; y: number }): FlowDefinition {
  const step = flow.steps.find((s) => s.id === stepId);
  if (!step || (step.position.x === position.x && step.position.y === position.y)) return flow;
  return updateStep(flow, stepId, { position: { x: Math.round(position.x), y: Math.round(position.y) } });
}

export function setStartStep(flow: FlowDefinition, stepId: string): FlowDefinition {
  return flow.steps.some((s) => s.id === stepId) ? { ...flow, startStepId: stepId } : flow;
}

/**
 * Connecting two handles: a condition "any answer" of the source that leads to the target. A
 * second connection between the same steps adds nothing (the existing edge already leads there).
 */
export function connectSteps(flow: FlowDefinition, sourceId: string, targetId: string): FlowDefinition {
  const source = flow.steps.find((s) => s.id === sourceId);
  if (!source || !flow.steps.some((s) => s.id === targetId)) return flow;
  if (source.conditions.some((c) => c.target.type === 'step' && c.target.stepId === targetId)) return flow;
  const condition: Condition = {
    id: nextId(
      'c',
      source.conditions.map((c) => c.id),
    ),
    type: 'any',
    target: { type: 'step', stepId: targetId },
  };
  return mapStep(flow, sourceId, (step) => ({ ...step, conditions: [...step.conditions, condition] }));
}

/** Adds (no id yet) or replaces (same id) a condition of a step. */
export function saveCondition(flow: FlowDefinition, stepId: string, condition: Draft<Condition>): FlowDefinition {
  return mapStep(flow, stepId, (step) => {
    if (condition.id && step.conditions.some((c) => c.id === condition.id)) {
      return { ...step, conditions: step.conditions.map((c) => (c.id === condition.id ? (condition as Condition) : c)) };
    }
    const id = nextId(
      'c',
      step.conditions.map((c) => c.id),
    );
    return { ...step, conditions: [...step.conditions, { ...condition, id } as Condition] };
  });
}

export function removeCondition(flow: FlowDefinition, stepId: string, conditionId: string): FlowDefinition {
  return mapStep(flow, stepId, (step) => ({ ...step, conditions: step.conditions.filter((c) => c.id !== conditionId) }));
}

/** Adds (no id yet) or replaces (same id) an interaction of a step. */
export function saveInteraction(flow: FlowDefinition, stepId: string, interaction: Draft<Interaction>): FlowDefinition {
  return mapStep(flow, stepId, (step) => {
    if (interaction.id && step.interactions.some((i) => i.id === interaction.id)) {
      return {
        ...step,
        interactions: step.interactions.map((i) => (i.id === interaction.id ? (interaction as Interaction) : i)),
      };
    }
    const id = nextId(
      'i',
      step.interactions.map((i) => i.id),
    );
    return { ...step, interactions: [...step.interactions, { ...interaction, id } as Interaction] };
  });
}

export function removeInteraction(flow: FlowDefinition, stepId: string, interactionId: string): FlowDefinition {
  return mapStep(flow, stepId, (step) => ({ ...step, interactions: step.interactions.filter((i) => i.id !== interactionId) }));
}

/** Moves an interaction one place up (-1) or down (+1): they run in order. */
export function moveInteraction(flow: FlowDefinition, stepId: string, interactionId: string, delta: -1 | 1): FlowDefinition {
  return mapStep(flow, stepId, (step) => {
    const from = step.interactions.findIndex((i) => i.id === interactionId);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= step.interactions.length) return step;
    const interactions = [...step.interactions];
    [interactions[from], interactions[to]] = [interactions[to], interactions[from]];
    return { ...step, interactions };
  });
}
