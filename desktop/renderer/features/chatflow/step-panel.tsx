import { Alert, Button, ButtonGroup, Card, Checkbox, H5, HTMLSelect, Tag } from '@blueprintjs/core';
import {
  INTERACTION_TYPES,
  type Condition,
  type FlowDefinition,
  type FlowStep,
  type Interaction,
  type InteractionType,
} from '@shared/schemas/chatflow';
import { useEffect, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formSummaryMessage } from '../../app/forms/field-text';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { useZodForm } from '../../app/forms/use-zod-form';
import { ConditionDialog } from './condition-dialog';
import { InteractionDialog } from './interaction-dialog';
import {
  conditionSummary,
  moveInteraction,
  removeCondition,
  removeInteraction,
  removeStep,
  saveCondition,
  saveInteraction,
  setStartStep,
  updateStep,
} from './flow-graph';
import { StepFormSchema, stepToValues, type StepValues } from './flow-forms';
import type { FlowOptions } from './flow-options';

type Pending = { kind: 'interaction'; item: Interaction } | { kind: 'condition'; item: Condition } | { kind: 'step' } | null;

/** A one-line text of an interaction for the list. */
function interactionText(interaction: Interaction, options: FlowOptions): string {
  const name = (list: { value: string; label: string }[], id: number) =>
    list.find((o) => o.value === String(id))?.label ?? `#${id}`;
  switch (interaction.type) {
    case 'message':
    case 'flowBuilder':
      return interaction.text;
    case 'media':
      return interaction.fileName || interaction.url;
    case 'generativeChat':
      return interaction.prompt;
    case 'delay':
      return `${interaction.seconds} s`;
    case 'tag':
      return name(options.tags, interaction.tagId);
    case 'kanban':
      return name(options.kanbans, interaction.kanbanId);
    case 'webhook':
      return interaction.url;
    case 'startFlow':
      return name(options.flows, interaction.chatFlowId);
  }
}

/**
 * The selected step: its name, whether it waits for the answer and its overrides of the flow's
 * settings (applied to the definition, so undo takes them back), its interactions in order and
 * its conditions, each added or edited in a dialog and deleted after a confirmation.
 */
export function StepPanel({
  flow,
  step,
  options,
  openConditionId,
  onChange,
  onClose,
}: {
  flow: FlowDefinition;
  step: FlowStep;
  options: FlowOptions;
  /** A condition to open at once (its edge was clicked). */
  openConditionId?: string;
  onChange(flow: FlowDefinition): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [newType, setNewType] = useState<InteractionType>('message');
  const [editingInteraction, setEditingInteraction] = useState<{ item: Interaction | null; type: InteractionType } | null>(null);
  const [editingCondition, setEditingCondition] = useState<{ item: Condition | null } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const form = useZodForm<
    StepValues,
    Pick<FlowStep, 'name' | 'waitsForAnswer' | 'maxAttempts' | 'noAnswerMinutes' | 'selfDistribution'>
  >(StepFormSchema, stepToValues(step));
  useEffect(() => {
    const condition = openConditionId ? step.conditions.find((c) => c.id === openConditionId) : undefined;
    if (condition) setEditingCondition({ item: condition });
    // Only a new click opens it again, not every edit of the step.
  }, [openConditionId]);
  // Another step selected, or the definition changed under the form (undo): show what it holds now.
  // Only the fields this form edits count: moving the step or editing its lists keeps what is being typed.
  const fields = JSON.stringify(stepToValues(step));
  useEffect(() => form.reset(JSON.parse(fields) as StepValues), [step.id, fields, form]);

  const apply = form.handleSubmit((parsed) =>
    onChange(
      updateStep(flow, step.id, {
        name: parsed.name,
        waitsForAnswer: parsed.waitsForAnswer,
        maxAttempts: parsed.maxAttempts,
        noAnswerMinutes: parsed.noAnswerMinutes,
        selfDistribution: parsed.selfDistribution,
      }),
    ),
  );
  const isStart = step.id === flow.startStepId;

  const confirm = () => {
    if (!pending) return;
    if (pending.kind === 'interaction') onChange(removeInteraction(flow, step.id, pending.item.id));
    if (pending.kind === 'condition') onChange(removeCondition(flow, step.id, pending.item.id));
    if (pending.kind === 'step') {
      onChange(removeStep(flow, step.id));
      onClose();
    }
    setPending(null);
  };

  return (
    <div className="chatflow-panel" data-testid="step-panel">
      <div className="chatflow-panel-title">
        <H5>
          {t('chatFlows.step.title')}{' '}
          {isStart ? (
            <Tag intent="success" minimal>
              {t('chatFlows.step.start')}
            </Tag>
          ) : null}
        </H5>
        <Button
          variant="minimal"
          icon="cross"
          aria-label={t('chatFlows.close')}
          onClick={onClose}
          data-testid="step-panel-close"
        />
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
        noValidate
      >
        <TextField control={form.control} name="name" label={t('chatFlows.step.name')} required testId="step-name" />
        <Controller
          control={form.control}
          name="waitsForAnswer"
          render={({ field }) => (
            <Checkbox
              label={t('chatFlows.step.waitsForAnswer')}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              data-testid="step-waits"
            />
          )}
        />
        <div className="chatflow-row">
          <TextField
            control={form.control}
            name="maxAttempts"
            label={t('chatFlows.step.maxAttempts')}
            helperText={t('chatFlows.step.inherit')}
            testId="step-max-attempts"
          />
          <TextField
            control={form.control}
            name="noAnswerMinutes"
            label={t('chatFlows.step.noAnswerMinutes')}
            helperText={t('chatFlows.step.inherit')}
            testId="step-no-answer"
          />
        </div>
        <SelectField
          control={form.control}
          name="selfDistribution"
          label={t('chatFlows.settings.selfDistribution')}
          options={[
            { value: '', label: t('chatFlows.step.inheritOption') },
            { value: 'none', label: t('chatFlows.selfDistribution.none') },
            { value: 'random', label: t('chatFlows.selfDistribution.random') },
            { value: 'balanced', label: t('chatFlows.selfDistribution.balanced') },
          ]}
          testId="step-self-distribution"
        />
        {formSummaryMessage(form.formState, t) ? <p className="chatflow-error">{formSummaryMessage(form.formState, t)}</p> : null}
        <ButtonGroup>
          <Button type="submit" icon="tick" text={t('chatFlows.step.apply')} data-testid="step-apply" />
          {!isStart && (
            <Button
              icon="flag"
              text={t('chatFlows.step.makeStart')}
              onClick={() => onChange(setStartStep(flow, step.id))}
              data-testid="step-make-start"
            />
          )}
          <Button
            icon="trash"
            intent="danger"
            text={t('chatFlows.step.delete')}
            disabled={isStart}
            title={isStart ? t('chatFlows.step.startCannotBeDeleted') : undefined}
            onClick={() => setPending({ kind: 'step' })}
            data-testid="step-delete"
          />
        </ButtonGroup>
      </form>

      <H5 className="chatflow-section">{t('chatFlows.step.interactions')}</H5>
      <ol className="chatflow-items" data-testid="interaction-list">
        {step.interactions.map((interaction, index) => (
          <li key={interaction.id} data-testid="interaction-item">
            <Card compact className="chatflow-item">
              <Tag minimal>{t(`chatFlows.interactionTypes.${interaction.type}`)}</Tag>
              <span className="chatflow-item-text" title={interactionText(interaction, options)}>
                {interactionText(interaction, options)}
              </span>
              <ButtonGroup variant="minimal">
                <Button
                  icon="arrow-up"
                  disabled={index === 0}
                  aria-label={t('chatFlows.moveUp')}
                  onClick={() => onChange(moveInteraction(flow, step.id, interaction.id, -1))}
                />
                <Button
                  icon="arrow-down"
                  disabled={index === step.interactions.length - 1}
                  aria-label={t('chatFlows.moveDown')}
                  onClick={() => onChange(moveInteraction(flow, step.id, interaction.id, 1))}
                />
                <Button
                  icon="edit"
                  aria-label={t('crud.edit')}
                  onClick={() => setEditingInteraction({ item: interaction, type: interaction.type })}
                  data-testid="interaction-edit"
                />
                <Button
                  icon="trash"
                  intent="danger"
                  aria-label={t('crud.delete')}
                  onClick={() => setPending({ kind: 'interaction', item: interaction })}
                  data-testid="interaction-delete"
                />
              </ButtonGroup>
            </Card>
          </li>
        ))}
      </ol>
      <div className="chatflow-add">
        <HTMLSelect
          value={newType}
          onChange={(e) => setNewType(e.currentTarget.value as InteractionType)}
          data-testid="interaction-new-type"
        >
          {INTERACTION_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`chatFlows.interactionTypes.${value}`)}
            </option>
          ))}
        </HTMLSelect>
        <Button
          icon="add"
          text={t('chatFlows.interaction.add')}
          onClick={() => setEditingInteraction({ item: null, type: newType })}
          data-testid="interaction-add"
        />
      </div>

      <H5 className="chatflow-section">{t('chatFlows.step.conditions')}</H5>
      <ol className="chatflow-items" data-testid="condition-list">
        {step.conditions.map((condition) => (
          <li key={condition.id} data-testid="condition-item">
            <Card compact className="chatflow-item">
              <Tag minimal>{t(`chatFlows.conditionTypes.${condition.type}`)}</Tag>
              <span className="chatflow-item-text">
                {conditionSummary(condition)} → {targetText(condition, flow, options, t)}
              </span>
              <ButtonGroup variant="minimal">
                <Button
                  icon="edit"
                  aria-label={t('crud.edit')}
                  onClick={() => setEditingCondition({ item: condition })}
                  data-testid="condition-edit"
                />
                <Button
                  icon="trash"
                  intent="danger"
                  aria-label={t('crud.delete')}
                  onClick={() => setPending({ kind: 'condition', item: condition })}
                  data-testid="condition-delete"
                />
              </ButtonGroup>
            </Card>
          </li>
        ))}
      </ol>
      <Button
        icon="add"
        text={t('chatFlows.condition.add')}
        onClick={() => setEditingCondition({ item: null })}
        data-testid="condition-add"
      />

      {editingInteraction && (
        <InteractionDialog
          interaction={editingInteraction.item}
          type={editingInteraction.type}
          options={options}
          onSave={(interaction) => onChange(saveInteraction(flow, step.id, interaction))}
          onClose={() => setEditingInteraction(null)}
        />
      )}
      {editingCondition && (
        <ConditionDialog
          condition={editingCondition.item}
          defaultTarget={{ type: 'close' }}
          options={options}
          onSave={(condition) => onChange(saveCondition(flow, step.id, condition))}
          onClose={() => setEditingCondition(null)}
        />
      )}
      <Alert
        isOpen={pending !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('crud.delete')}
        cancelButtonText={t('common.cancel')}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      >
        <p data-testid="confirm-delete-text">
          {pending?.kind === 'step'
            ? t('chatFlows.step.deleteConfirm', { name: step.name })
            : pending?.kind === 'interaction'
              ? t('chatFlows.interaction.deleteConfirm', { type: t(`chatFlows.interactionTypes.${pending.item.type}`) })
              : pending?.kind === 'condition'
                ? t('chatFlows.condition.deleteConfirm', { text: conditionSummary(pending.item) })
                : ''}
        </p>
      </Alert>
    </div>
  );
}

/** Where a condition leads, named. */
function targetText(condition: Condition, flow: FlowDefinition, options: FlowOptions, t: (key: string) => string): string {
  const target = condition.target;
  const find = (list: { value: string; label: string }[], id: number | string) =>
    list.find((o) => o.value === String(id))?.label ?? `#${id}`;
  switch (target.type) {
    case 'step':
      return flow.steps.find((s) => s.id === target.stepId)?.name ?? `${t('chatFlows.target.missingStep')} ${target.stepId}`;
    case 'queue':
      return `${t('chatFlows.target.queue')}: ${find(options.queues, target.queueId)}`;
    case 'user':
      return `${t('chatFlows.target.user')}: ${find(options.users, target.userId)}`;
    case 'channel':
      return `${t('chatFlows.target.channel')}: ${find(options.channels, target.channelId)}`;
    case 'close':
      return t('chatFlows.target.close');
  }
}
