import { Tag } from '@blueprintjs/core';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { StepNodeData } from './flow-graph';

/**
 * A step on the canvas: its name, the start mark, whether it waits, how many interactions and
 * conditions it has. Dragging from the right handle to another step creates a condition.
 */
export function StepNodeView({ data, selected }: NodeProps & { data: StepNodeData }) {
  const { t } = useTranslation();
  const { step, isStart } = data;
  const routes = step.conditions.filter((c) => c.target.type !== 'step').length;
  return (
    <div
      className={`chatflow-node${selected ? ' is-selected' : ''}${isStart ? ' is-start' : ''}`}
      data-testid="flow-node"
      data-step-id={step.id}
    >
      <Handle type="target" position={Position.Left} className="chatflow-handle" data-testid="flow-node-target" />
      <div className="chatflow-node-name">{step.name}</div>
      <div className="chatflow-node-tags">
        {isStart ? (
          <Tag intent="success" minimal>
            {t('chatFlows.step.start')}
          </Tag>
        ) : null}
        {step.waitsForAnswer ? (
          <Tag minimal icon="time">
            {t('chatFlows.step.waits')}
          </Tag>
        ) : null}
      </div>
      <div className="chatflow-node-meta">
        {t('chatFlows.step.counts', { interactions: step.interactions.length, conditions: step.conditions.length })}
        {routes > 0 ? ` · ${t('chatFlows.step.routes', { count: routes })}` : ''}
      </div>
      <Handle type="source" position={Position.Right} className="chatflow-handle" data-testid="flow-node-source" />
    </div>
  );
}
