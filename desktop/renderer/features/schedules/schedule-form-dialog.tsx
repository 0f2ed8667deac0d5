import { Button, ButtonGroup, FileInput, FormGroup, InputGroup, Menu, MenuItem, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { messageVariableToken, type MessageVariable } from '@shared/message-variables';
import { SCHEDULE_DEFAULT_REPETITIONS, SCHEDULE_RECURRENCE_DAYS } from '@shared/limits';
import { ScheduleMessageSchema, type ScheduledMessageDto } from '@shared/schemas/messages';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useListContactsQuery } from '../../api/contacts.api';
import { useScheduleMessageMutation } from '../../api/messages.api';
import { useCreateScheduleMutation, useUpdateScheduleMutation } from '../../api/schedules.api';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { fieldMessage, formSummaryMessage } from '../../app/forms/field-text';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { contactSearchReady, formatScheduleDate } from '../attendance/composer-rules';
import { MessageVariablesHelp } from '../quick-messages/message-variables-help';
import { insertAtCursor } from '../quick-messages/quick-message-form.logic';
import {
  SCHEDULE_SHORTCUTS,
  instantOf,
  shortcutWallTime,
  wallTimeOf,
  wallTimeProblem,
  type ScheduleShortcut,
} from './schedule-time';

/** What the fields hold: the date as a wall time in the tenant's zone, numbers as the selects' texts. */
export interface ScheduleFormValues {
  /** Scheduling from a ticket's composer: the ticket names the contact. */
  ticketId?: number;
  contactId: number | undefined;
  body: string;
  scheduleDate: string;
  recurrenceDays: string;
  repetitions: string;
}

const FIELDS = ['contactId', 'body', 'scheduleDate', 'recurrenceDays', 'repetitions'];

/**
 * Create or edit a scheduled message (/agendamentos): contact (searched from 2 letters; fixed
 * when editing), message with the variables of spec section 2 (filled when it is sent), a file
 * (when creating), date and time in the tenant's zone with the quick shortcuts of spec section 9,
 * recurrence (none or every 5...60 days) and repetitions (default 1). Validated by the server's
 * own schema (ScheduleMessageSchema).
 *
 * From a ticket's composer (`ticket`): the same form for that ticket's contact, titled "Agendar
 * mensagem", the composer's text as the message; the new message joins the ticket's thread.
 */
export function ScheduleFormDialog({
  schedule,
  timeZone,
  onClose,
  ticket,
}: {
  schedule: ScheduledMessageDto | null;
  timeZone: string;
  onClose(): void;
  ticket?: { id: number; initialText: string; onScheduled(): void };
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [contactName, setContactName] = useState<string | null>(schedule?.contact?.name ?? null);
  const [shortcut, setShortcut] = useState<ScheduleShortcut>('custom');
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  // The server's schema, plus what only this form knows: a contact is chosen, a text or a file goes.
  const schema = useMemo(
    () =>
      ScheduleMessageSchema.superRefine((v, ctx) => {
        if (v.contactId === undefined && !ticket) ctx.addIssue({ code: 'custom', path: ['contactId'], message: 'é obrigatório' });
        if (!file && !schedule?.mediaName && !v.body.trim())
          ctx.addIssue({ code: 'custom', path: ['body'], message: 'é obrigatório' });
      }),
    [file, schedule?.mediaName, ticket],
  );
  const form = useZodForm<ScheduleFormValues, unknown>(schema, {
    ...(ticket ? { ticketId: ticket.id } : {}),
    contactId: schedule?.contact?.id ?? schedule?.contactId ?? undefined,
    body: schedule?.body ?? ticket?.initialText ?? '',
    scheduleDate: schedule?.scheduleDate ? wallTimeOf(new Date(schedule.scheduleDate), timeZone) : '',
    recurrenceDays: String(schedule?.schedule?.recurrenceDays ?? 0),
    repetitions: String(schedule?.schedule?.repetitions ?? SCHEDULE_DEFAULT_REPETITIONS),
  });
  const recurrence = useWatch({ control: form.control, name: 'recurrenceDays' });
  const [createSchedule, creating] = useCreateScheduleMutation();
  const [updateSchedule, updating] = useUpdateScheduleMutation();
  const [scheduleForTicket, schedulingForTicket] = useScheduleMessageMutation();

  const chooseShortcut = (next: ScheduleShortcut) => {
    setShortcut(next);
    const wall = shortcutWallTime(next, new Date(), timeZone);
    if (wall) form.setValue('scheduleDate', wall, { shouldValidate: form.formState.submitCount > 0 });
  };

  const insertVariable = (variable: MessageVariable) => {
    const input = bodyRef.current;
    const text = form.getValues('body');
    const token = messageVariableToken(variable);
    const at = insertAtCursor(text, input?.selectionStart ?? text.length, input?.selectionEnd ?? text.length, token);
    form.setValue('body', at.text);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(at.cursor, at.cursor);
    });
  };

  /**
   * The schema stops at a field it cannot read (an empty date) before the form's own checks: a
   * refused submit names the missing contact, text and date all at once.
   */
  const completeErrors = () => {
    const values = form.getValues();
    if (values.contactId === undefined && !ticket) form.setError('contactId', { type: 'client', message: 'é obrigatório' });
    if (!file && !schedule?.mediaName && !values.body.trim()) form.setError('body', { type: 'client', message: 'é obrigatório' });
    const problem = wallTimeProblem(values.scheduleDate, new Date(), timeZone);
    if (problem) form.setError('scheduleDate', { type: 'client', message: t(`schedules.date.${problem}`) });
  };

  const submit = form.handleSubmit(async () => {
    const values = form.getValues();
    const problem = wallTimeProblem(values.scheduleDate, new Date(), timeZone);
    if (problem) {
      form.setError('scheduleDate', { type: 'client', message: t(`schedules.date.${problem}`) });
      return;
    }
    const recurrenceDays = Number(values.recurrenceDays);
    const fields = {
      body: values.body,
      scheduleDate: instantOf(values.scheduleDate, timeZone)!.toISOString(),
      recurrenceDays,
      repetitions: recurrenceDays > 0 ? Number(values.repetitions) : SCHEDULE_DEFAULT_REPETITIONS,
    };
    try {
      if (schedule) await updateSchedule({ id: schedule.id, body: fields }).unwrap();
      else if (ticket) {
        const sent = await scheduleForTicket({ ...fields, ticketId: ticket.id, clientId: `sch-${crypto.randomUUID()}` }).unwrap();
        showToast(
          t('chatTools.schedule.done', { date: formatScheduleDate(sent.scheduleDate ?? fields.scheduleDate, timeZone) }),
          'success',
        );
        ticket.onScheduled();
        onClose();
        return;
      } else
        await createSchedule({ ...fields, contactId: values.contactId!, clientId: `sch-${crypto.randomUUID()}`, file }).unwrap();
      showToast(t('schedules.saved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, FIELDS);
    }
  }, completeErrors);

  return (
    <FormDialog
      isOpen
      wide
      title={schedule ? t('schedules.editTitle') : ticket ? t('chatTools.schedule.title') : t('schedules.createTitle')}
      icon="time"
      saving={form.formState.isSubmitting || creating.isLoading || updating.isLoading || schedulingForTicket.isLoading}
      error={formSummaryMessage(form.formState, t)}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="schedule-form"
    >
      {ticket ? null : (
        <Controller
          control={form.control}
          name="contactId"
          render={({ field, fieldState }) => (
            <FormGroup
              label={t('schedules.contact')}
              labelInfo="*"
              intent={fieldState.error ? 'danger' : 'none'}
              helperText={
                fieldState.error ? (
                  <span role="alert" data-testid="schedule-contact-error">
                    {fieldMessage(t('schedules.contact'), fieldState.error.message)}
                  </span>
                ) : undefined
              }
            >
              {schedule ? (
                <Tag large minimal icon="person" data-testid="schedule-contact">
                  {contactName}
                </Tag>
              ) : (
                <ContactSearch
                  selectedId={field.value}
                  selectedName={contactName}
                  onSelect={(id, name) => {
                    field.onChange(id);
                    setContactName(name);
                  }}
                />
              )}
            </FormGroup>
          )}
        />
      )}
      <Controller
        control={form.control}
        name="body"
        render={({ field, fieldState }) => (
          <FormGroup
            label={t('schedules.message')}
            labelFor="schedule-body"
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={
              fieldState.error ? (
                <span role="alert" data-testid="schedule-body-error">
                  {fieldMessage(t('schedules.message'), fieldState.error.message)}
                </span>
              ) : (
                t('schedules.messageHelp')
              )
            }
          >
            <TextArea
              id="schedule-body"
              fill
              rows={4}
              value={field.value}
              inputRef={(element) => {
                bodyRef.current = element;
                field.ref(element);
              }}
              onChange={(event) => field.onChange(event.currentTarget.value)}
              onBlur={field.onBlur}
              intent={fieldState.error ? 'danger' : 'none'}
              data-testid="schedule-body"
            />
          </FormGroup>
        )}
      />
      <MessageVariablesHelp onInsert={insertVariable} />
      {schedule ? (
        schedule.mediaName ? (
          <FormGroup label={t('schedules.file')}>
            <Tag minimal icon="paperclip" large>
              {schedule.mediaName}
            </Tag>
          </FormGroup>
        ) : null
      ) : ticket ? null : (
        <FormGroup label={t('schedules.file')} labelFor="schedule-file" helperText={t('schedules.fileHelp')}>
          <FileInput
            fill
            inputProps={{ id: 'schedule-file', 'aria-label': t('schedules.file') }}
            text={file ? file.name : t('schedules.chooseFile')}
            buttonText={t('schedules.browse')}
            hasSelection={file !== null}
            onInputChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
        </FormGroup>
      )}
      <FormGroup label={t('schedules.when')} labelInfo="*">
        <ButtonGroup className="schedule-shortcuts" data-testid="schedule-shortcuts">
          {SCHEDULE_SHORTCUTS.map((option) => (
            <Button
              key={option}
              active={shortcut === option}
              text={t(`chatTools.schedule.presets.${option}`)}
              onClick={() => chooseShortcut(option)}
              data-testid={`schedule-shortcut-${option}`}
            />
          ))}
        </ButtonGroup>
      </FormGroup>
      <Controller
        control={form.control}
        name="scheduleDate"
        render={({ field, fieldState }) => (
          <FormGroup
            label={t('schedules.dateTime')}
            labelFor="schedule-date"
            labelInfo="*"
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={
              fieldState.error ? (
                <span role="alert" data-testid="schedule-date-error">
                  {fieldMessage(t('schedules.dateTime'), fieldState.error.message)}
                </span>
              ) : (
                t('schedules.timeZone', { zone: timeZone })
              )
            }
          >
            <InputGroup
              id="schedule-date"
              type="datetime-local"
              value={field.value}
              inputRef={field.ref}
              onChange={(event) => {
                setShortcut('custom');
                field.onChange(event.currentTarget.value);
              }}
              onBlur={field.onBlur}
              intent={fieldState.error ? 'danger' : 'none'}
              data-testid="schedule-date"
            />
          </FormGroup>
        )}
      />
      <div className="schedule-recurrence">
        <SelectField
          control={form.control}
          name="recurrenceDays"
          label={t('schedules.recurrence')}
          options={SCHEDULE_RECURRENCE_DAYS.map((days) => ({
            value: String(days),
            label: days === 0 ? t('chatTools.schedule.noRecurrence') : t('chatTools.schedule.days', { count: days }),
          }))}
          testId="schedule-recurrence"
        />
        <TextField
          control={form.control}
          name="repetitions"
          label={t('schedules.repetitions')}
          disabled={recurrence === '0'}
          helperText={t('schedules.repetitionsHelp')}
          testId="schedule-repetitions"
        />
      </div>
    </FormDialog>
  );
}

/** Contact search from 2 letters (spec section 9); the chosen contact shows as a tag. */
export function ContactSearch({
  selectedId,
  selectedName,
  onSelect,
}: {
  selectedId: number | undefined;
  selectedName: string | null;
  onSelect(id: number, name: string): void;
}) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(term.trim()), 300);
    return () => clearTimeout(timer);
  }, [term]);
  const ready = contactSearchReady(debounced);
  const { data, isFetching } = useListContactsQuery({ searchParam: debounced, pageNumber: 1, pageSize: 8 }, { skip: !ready });
  return (
    <div className="schedule-contact-search">
      {selectedId !== undefined ? (
        <Tag large minimal intent="primary" icon="person" data-testid="schedule-contact">
          {selectedName}
        </Tag>
      ) : null}
      <InputGroup
        leftIcon="search"
        placeholder={t('chatTools.forward.search')}
        aria-label={t('chatTools.forward.search')}
        value={term}
        onChange={(event) => setTerm(event.currentTarget.value)}
        rightElement={isFetching ? <Spinner size={16} /> : undefined}
        data-testid="schedule-contact-search"
      />
      {!contactSearchReady(term) ? (
        <div className="bp6-text-muted">{t('chatTools.forward.searchHint')}</div>
      ) : ready && data && data.contacts.length === 0 ? (
        <div className="bp6-text-muted">{t('chatTools.forward.noContacts')}</div>
      ) : (
        <Menu className="schedule-contact-list">
          {(ready ? (data?.contacts ?? []) : []).map((contact) => (
            <MenuItem
              key={contact.id}
              text={contact.name}
              label={contact.number ?? ''}
              active={selectedId === contact.id}
              icon={selectedId === contact.id ? 'tick' : 'person'}
              onClick={() => onSelect(contact.id, contact.name)}
              data-testid="schedule-contact-option"
            />
          ))}
        </Menu>
      )}
    </div>
  );
}
