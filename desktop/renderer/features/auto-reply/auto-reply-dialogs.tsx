import { Switch } from '@blueprintjs/core';
import {
  AUTO_REPLY_ACTIONS,
  AutoReplyActionSchema,
  AutoReplyStepSchema,
  CreateAutoReplySchema,
  type AutoReplyActionInput,
} from '@shared/schemas/auto-reply';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  useCreateAutoReplyActionMutation,
  useCreateAutoReplyMutation,
  useCreateAutoReplyStepMutation,
  useUpdateAutoReplyActionMutation,
  useUpdateAutoReplyMutation,
  useUpdateAutoReplyStepMutation,
  type AutoReply,
  type AutoReplyAction,
  type AutoReplyStep,
} from '../../api/auto-reply.api';
import { useListQueuesQuery } from '../../api/queues.api';
import { useListAllTenantUsersQuery } from '../../api/users.api';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { formSummaryMessage } from '../../app/forms/field-text';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';

/**
 * The three forms of /auto-resposta, each validated by the server's own schema
 * (shared/schemas/auto-reply.ts): a bot (name, active, test number), a step (text, initial) and
 * an action (words, what it does and where it leads, the reply sent when it matches).
 */

interface BotValues {
  name: string;
  active: boolean;
  testNumber: string;
}

export function AutoReplyFormDialog({ bot, onClose }: { bot: AutoReply | null; onClose(): void }) {
  const { t } = useTranslation();
  const form = useZodForm<BotValues, z.output<typeof CreateAutoReplySchema>>(CreateAutoReplySchema, {
    name: bot?.name ?? '',
    active: bot?.active ?? true,
    testNumber: bot?.testNumber ?? '',
  });
  const [create, creating] = useCreateAutoReplyMutation();
  const [update, updating] = useUpdateAutoReplyMutation();
  const submit = form.handleSubmit(async (parsed) => {
    try {
      if (bot) await update({ id: bot.id, body: parsed }).unwrap();
      else await create(parsed).unwrap();
      showToast(t('autoReply.saved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, ['name', 'testNumber']);
    }
  });
  return (
    <FormDialog
      isOpen
      title={bot ? t('autoReply.editTitle') : t('autoReply.createTitle')}
      icon="chat"
      saving={form.formState.isSubmitting || creating.isLoading || updating.isLoading}
      error={formSummaryMessage(form.formState, t)}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="auto-reply-form"
    >
      <TextField control={form.control} name="name" label={t('crud.name')} required autoFocus testId="auto-reply-name" />
      <TextField
        control={form.control}
        name="testNumber"
        label={t('autoReply.testNumber')}
        helperText={t('autoReply.testNumberHelp')}
        testId="auto-reply-test-number"
      />
      <Controller
        control={form.control}
        name="active"
        render={({ field }) => (
          <Switch
            label={t('crud.active')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            data-testid="auto-reply-active"
          />
        )}
      />
    </FormDialog>
  );
}

interface StepValues {
  reply: string;
  initialStep: boolean;
}

export function AutoReplyStepDialog({ bot, step, onClose }: { bot: AutoReply; step: AutoReplyStep | null; onClose(): void }) {
  const { t } = useTranslation();
  const form = useZodForm<StepValues, z.output<typeof AutoReplyStepSchema>>(AutoReplyStepSchema, {
    reply: step?.reply ?? '',
    initialStep: step?.initialStep ?? bot.stepsReply.length === 0,
  });
  const [create, creating] = useCreateAutoReplyStepMutation();
  const [update, updating] = useUpdateAutoReplyStepMutation();
  const submit = form.handleSubmit(async (parsed) => {
    try {
      if (step) await update({ autoReplyId: bot.id, stepId: step.id, body: parsed }).unwrap();
      else await create({ autoReplyId: bot.id, body: parsed }).unwrap();
      showToast(t('autoReply.stepSaved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, ['reply']);
    }
  });
  return (
    <FormDialog
      isOpen
      wide
      title={step ? t('autoReply.editStepTitle') : t('autoReply.createStepTitle')}
      icon="comment"
      saving={form.formState.isSubmitting || creating.isLoading || updating.isLoading}
      error={formSummaryMessage(form.formState, t)}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="auto-reply-step-form"
    >
      <TextAreaField
        control={form.control}
        name="reply"
        label={t('autoReply.stepReply')}
        helperText={t('autoReply.stepReplyHelp')}
        required
        rows={5}
        testId="auto-reply-step-reply"
      />
      <Controller
        control={form.control}
        name="initialStep"
        render={({ field }) => (
          <Switch
            label={t('autoReply.initialStep')}
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            data-testid="auto-reply-step-initial"
          />
        )}
      />
    </FormDialog>
  );
}

interface ActionValues {
  stepReplyId: number;
  words: string;
  action: string;
  nextStepId: string;
  queueId: string;
  userIdDestination: string;
  replyDefinition: string;
}

const DESTINATION_FIELDS = ['nextStepId', 'queueId', 'userIdDestination'] as const;

/** The form holds the selects' texts; an empty choice is "none" for the shared schema. */
const ActionFormSchema = z.preprocess((value) => {
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of DESTINATION_FIELDS) if (out[field] === '') out[field] = null;
  return out;
}, AutoReplyActionSchema);

export function AutoReplyActionDialog({
  bot,
  step,
  action,
  onClose,
}: {
  bot: AutoReply;
  step: AutoReplyStep;
  action: AutoReplyAction | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const form = useZodForm<ActionValues, AutoReplyActionInput>(ActionFormSchema as z.ZodType<AutoReplyActionInput, unknown>, {
    stepReplyId: step.id,
    words: action?.words ?? '',
    action: String(action?.action ?? 0),
    nextStepId: action?.nextStepId ? String(action.nextStepId) : '',
    queueId: action?.queueId ? String(action.queueId) : '',
    userIdDestination: action?.userIdDestination ? String(action.userIdDestination) : '',
    replyDefinition: action?.replyDefinition ?? '',
  });
  const kind = useWatch({ control: form.control, name: 'action' });
  const queues = useListQueuesQuery();
  const users = useListAllTenantUsersQuery();
  const [create, creating] = useCreateAutoReplyActionMutation();
  const [update, updating] = useUpdateAutoReplyActionMutation();
  const stepOptions = useMemo(
    () =>
      bot.stepsReply
        .filter((s) => s.id !== step.id)
        .map((s) => ({ value: String(s.id), label: `#${s.id} ${s.reply.slice(0, 60)}` })),
    [bot, step.id],
  );
  const submit = form.handleSubmit(async (parsed) => {
    try {
      if (action) await update({ id: action.id, body: parsed }).unwrap();
      else await create(parsed).unwrap();
      showToast(t('autoReply.actionSaved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, ['words', 'action', ...DESTINATION_FIELDS, 'replyDefinition']);
    }
  });
  return (
    <FormDialog
      isOpen
      wide
      title={action ? t('autoReply.editActionTitle') : t('autoReply.createActionTitle')}
      icon="flow-branch"
      saving={form.formState.isSubmitting || creating.isLoading || updating.isLoading}
      error={formSummaryMessage(form.formState, t)}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="auto-reply-action-form"
    >
      <TextField
        control={form.control}
        name="words"
        label={t('autoReply.words')}
        helperText={t('autoReply.wordsHelp')}
        required
        autoFocus
        testId="auto-reply-action-words"
      />
      <SelectField
        control={form.control}
        name="action"
        label={t('autoReply.actionKind')}
        required
        options={AUTO_REPLY_ACTIONS.map((value) => ({ value: String(value), label: t(`autoReply.actionKinds.${value}`) }))}
        testId="auto-reply-action-kind"
      />
      {kind === '0' ? (
        <SelectField
          control={form.control}
          name="nextStepId"
          label={t('autoReply.nextStep')}
          required
          emptyLabel={t('autoReply.choose')}
          options={stepOptions}
          testId="auto-reply-action-next-step"
        />
      ) : null}
      {kind === '1' ? (
        <SelectField
          control={form.control}
          name="queueId"
          label={t('autoReply.queue')}
          required
          emptyLabel={t('autoReply.choose')}
          options={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
          testId="auto-reply-action-queue"
        />
      ) : null}
      {kind === '2' ? (
        <SelectField
          control={form.control}
          name="userIdDestination"
          label={t('autoReply.user')}
          required
          emptyLabel={t('autoReply.choose')}
          options={(users.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
          testId="auto-reply-action-user"
        />
      ) : null}
      <TextAreaField
        control={form.control}
        name="replyDefinition"
        label={t('autoReply.replyDefinition')}
        helperText={t('autoReply.replyDefinitionHelp')}
        rows={3}
        testId="auto-reply-action-reply"
      />
    </FormDialog>
  );
}
