import { FormGroup, Tag } from '@blueprintjs/core';
import { CreateTaskSchema, TASK_FIELDS, TASK_PRIORITIES, TASK_RECURRENCE_DAYS, type CreateTaskInput } from '@shared/schemas/tasks';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCreateTaskMutation, useUpdateTaskMutation, type TaskDto } from '../../api/tasks.api';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { ContactSearch } from '../schedules/schedule-form-dialog';
import { fromDateTimeLocal, toDateTimeLocal, type TaskOwnerOption } from './task-time';

interface TaskFormValues {
  name: string;
  description: string;
  /** The browser's datetime-local text (its own zone); sent as ISO 8601 with offset. */
  limitDate: string;
  ownerId: string;
  recurrenceDays: string;
  repetitions: string;
  priority: string;
  ticketId: string;
  contactId: string;
}

const FIELDS = TASK_FIELDS;

/**
 * Create or edit a task (/tarefas): name, description, limit date, owner, recurrence and
 * repetitions, priority, and an optional ticket or contact. Validated with the shared schema the
 * server uses (required fields: 'Preencha todos os campos obrigatórios.').
 */
export function TaskFormDialog({
  task,
  owners,
  defaultOwnerId,
  onClose,
}: {
  task: TaskDto | null;
  owners: readonly TaskOwnerOption[];
  defaultOwnerId: number | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [createTask, creating] = useCreateTaskMutation();
  const [updateTask, updating] = useUpdateTaskMutation();
  const [contactName, setContactName] = useState<string | null>(task?.contactName ?? null);
  const form = useZodForm<TaskFormValues, CreateTaskInput>(CreateTaskSchema, {
    name: task?.name ?? '',
    description: task?.description ?? '',
    limitDate: task ? toDateTimeLocal(task.limitDate) : '',
    ownerId: String(task?.ownerId ?? defaultOwnerId ?? ''),
    recurrenceDays: String(task?.recurrenceDays ?? 0),
    repetitions: String(task?.repetitions ?? 0),
    priority: task?.priority ?? 'none',
    ticketId: task?.ticketId ? String(task.ticketId) : '',
    contactId: task?.contactId ? String(task.contactId) : '',
  });
  const contact = useController({ control: form.control, name: 'contactId' });

  const submit = form.handleSubmit(async (parsed) => {
    const body = {
      name: parsed.name,
      description: parsed.description ?? '',
      limitDate: fromDateTimeLocal(parsed.limitDate),
      ownerId: parsed.ownerId,
      recurrenceDays: parsed.recurrenceDays ?? 0,
      repetitions: parsed.repetitions ?? 0,
      priority: parsed.priority ?? 'none',
      ticketId: parsed.ticketId ?? null,
      contactId: parsed.contactId ?? null,
    };
    try {
      if (task) await updateTask({ id: task.id, body }).unwrap();
      else await createTask(body).unwrap();
      showToast(t('tasks.saved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
    }
  });

  const { control } = form;
  return (
    <FormDialog
      isOpen
      title={task ? t('tasks.editTitle') : t('tasks.createTitle')}
      icon="tick-circle"
      saving={creating.isLoading || updating.isLoading}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="task-form"
      wide
    >
      <TextField control={control} name="name" label={t('tasks.fields.name')} required autoFocus />
      <TextAreaField
        control={control}
        name="description"
        label={t('tasks.fields.description')}
        rows={3}
        testId="field-description"
      />
      <TextField control={control} name="limitDate" label={t('tasks.fields.limitDate')} type="datetime-local" required />
      <SelectField
        control={control}
        name="ownerId"
        label={t('tasks.fields.owner')}
        required
        emptyLabel={t('tasks.chooseOwner')}
        options={owners.map((o) => ({ value: String(o.id), label: o.name }))}
      />
      <SelectField
        control={control}
        name="priority"
        label={t('tasks.fields.priority')}
        options={TASK_PRIORITIES.map((p) => ({ value: p, label: t(`tasks.priority.${p}`) }))}
      />
      <SelectField
        control={control}
        name="recurrenceDays"
        label={t('tasks.fields.recurrence')}
        options={TASK_RECURRENCE_DAYS.map((d) => ({
          value: String(d),
          label: d === 0 ? t('tasks.recurrenceNone') : t('tasks.recurrenceEvery', { count: d }),
        }))}
      />
      <TextField
        control={control}
        name="repetitions"
        label={t('tasks.fields.repetitions')}
        helperText={t('tasks.repetitionsHelp')}
      />
      <TextField control={control} name="ticketId" label={t('tasks.fields.ticket')} helperText={t('tasks.ticketHelp')} />
      <FormGroup label={t('tasks.fields.contact')} helperText={contact.fieldState.error?.message}>
        {contact.field.value ? (
          <Tag
            large
            minimal
            intent="primary"
            icon="person"
            onRemove={() => {
              contact.field.onChange('');
              setContactName(null);
            }}
            data-testid="task-contact"
          >
            {contactName ?? `#${contact.field.value}`}
          </Tag>
        ) : (
          <ContactSearch
            selectedId={undefined}
            selectedName={null}
            onSelect={(id, name) => {
              contact.field.onChange(String(id));
              setContactName(name);
            }}
          />
        )}
      </FormGroup>
      <FormErrorSummary control={control} />
    </FormDialog>
  );
}
