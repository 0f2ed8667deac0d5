import { FormGroup, InputGroup, Switch, TextArea } from '@blueprintjs/core';
import { withDefaultWeek, type BusinessHoursDay } from '@shared/schemas/tenant-settings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateQueueMutation, useUpdateQueueMutation, type Queue, type QueueBody } from '../../api/queues.api';
import { showToast } from '../../app/feedback/toaster';
import { ColorField } from '../../app/crud/color-field';
import { checkColor, checkName, checkText, fieldTexts, pickDefaultColor } from '../../app/crud/catalog-validation';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf, type FormFailure } from '../../app/crud/form-errors';
import { toRequestDays, validateWeek, type WeekFailures } from '../business-hours/business-hours-form.logic';
import { BusinessHoursWeekTable } from '../business-hours/business-hours-week-table';

type Field = 'name' | 'color' | 'greetingMessage';

/**
 * Create or edit a queue: name, colour, greeting message sent when a ticket enters it, active,
 * and optionally its own business hours (else the tenant's apply to its tickets).
 */
export function QueueFormDialog({ queue, nextIndex, onClose }: { queue: Queue | null; nextIndex: number; onClose(): void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<QueueBody>(() => ({
    name: queue?.name ?? '',
    color: queue?.color ?? pickDefaultColor(nextIndex),
    greetingMessage: queue?.greetingMessage ?? '',
    active: queue?.active ?? true,
  }));
  const [ownHours, setOwnHours] = useState(Boolean(queue?.businessHours));
  const [days, setDays] = useState<BusinessHoursDay[]>(() => withDefaultWeek(queue?.businessHours));
  const [hourFailures, setHourFailures] = useState<WeekFailures>({});
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const [createQueue, creating] = useCreateQueueMutation();
  const [updateQueue, updating] = useUpdateQueueMutation();

  const submit = async () => {
    const local = fieldTexts<Field>(
      { name: checkName(form.name), color: checkColor(form.color), greetingMessage: checkText(form.greetingMessage ?? '') },
      t,
    );
    const weekFailures = ownHours ? validateWeek(days) : {};
    setErrors(local);
    setHourFailures(weekFailures);
    setFailure(null);
    if (Object.keys(local).length > 0 || Object.keys(weekFailures).length > 0) return;
    const body: QueueBody = {
      ...form,
      name: form.name.trim(),
      greetingMessage: form.greetingMessage?.trim() || null,
      businessHours: ownHours ? toRequestDays(days) : null,
    };
    try {
      if (queue) await updateQueue({ id: queue.id, body }).unwrap();
      else await createQueue(body).unwrap();
      showToast(t('queues.saved'), 'success');
      onClose();
    } catch (error) {
      const refused = formFailureOf(error, t);
      setFailure(refused);
      setErrors(refused.fields);
    }
  };

  return (
    <FormDialog
      isOpen
      title={queue ? t('queues.editTitle') : t('queues.createTitle')}
      icon="list"
      wide={ownHours}
      saving={creating.isLoading || updating.isLoading}
      error={failure?.message}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="queue-form"
    >
      <FormGroup
        label={t('crud.name')}
        labelFor="queue-name"
        labelInfo="*"
        intent={errors.name ? 'danger' : 'none'}
        helperText={errors.name}
      >
        <InputGroup
          id="queue-name"
          autoFocus
          value={form.name}
          intent={errors.name ? 'danger' : 'none'}
          onChange={(event) => setForm({ ...form, name: event.currentTarget.value })}
        />
      </FormGroup>
      <ColorField id="queue-color" value={form.color} error={errors.color} onChange={(color) => setForm({ ...form, color })} />
      <FormGroup
        label={t('queues.greetingMessage')}
        labelFor="queue-greeting"
        intent={errors.greetingMessage ? 'danger' : 'none'}
        helperText={errors.greetingMessage ?? t('queues.greetingMessageHelp')}
      >
        <TextArea
          id="queue-greeting"
          fill
          rows={4}
          value={form.greetingMessage ?? ''}
          onChange={(event) => setForm({ ...form, greetingMessage: event.currentTarget.value })}
        />
      </FormGroup>
      <Switch
        label={t('crud.active')}
        checked={form.active}
        onChange={(event) => setForm({ ...form, active: event.currentTarget.checked })}
        data-testid="queue-active"
      />
      <Switch
        label={t('queues.ownHours')}
        checked={ownHours}
        onChange={(event) => setOwnHours(event.currentTarget.checked)}
        data-testid="queue-own-hours"
      />
      <p className="crud-muted">{t('queues.ownHoursHelp')}</p>
      {ownHours ? (
        <BusinessHoursWeekTable
          days={days}
          failures={hourFailures}
          disabled={false}
          onChange={(day, change) => {
            setDays(days.map((entry) => (entry.day === day ? { ...entry, ...change } : entry)));
            if (hourFailures[day]) setHourFailures({ ...hourFailures, [day]: {} });
          }}
        />
      ) : null}
    </FormDialog>
  );
}
