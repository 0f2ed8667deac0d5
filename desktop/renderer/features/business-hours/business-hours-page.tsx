import { Button, Card, FormGroup, H5, NonIdealState, Spinner, TextArea } from '@blueprintjs/core';
import { BUSINESS_HOURS_MESSAGE_MAX, withDefaultWeek, type BusinessHoursDay } from '@shared/schemas/tenant-settings';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useGetBusinessHoursQuery,
  useUpdateBusinessHoursMessageMutation,
  useUpdateBusinessHoursMutation,
} from '../../api/tenant-settings.api';
import { showToast } from '../../app/feedback/toaster';
import { useWriteAccess } from '../../app/crud/write-access';
import { toRequestDays, validateAbsenceMessage, validateWeek, type WeekFailures } from './business-hours-form.logic';
import { BusinessHoursWeekTable } from './business-hours-week-table';
import '../../app/crud/crud.css';
import { PageHeader } from '../../app/layout/page-header';

/**
 * /horario-atendimento: for each weekday, open all day (O), closed (C) or open by hours (H, two
 * periods hr1-hr2 and hr3-hr4), and the message sent to contacts who write outside these hours.
 */
export function BusinessHoursPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const query = useGetBusinessHoursQuery();
  const [days, setDays] = useState<BusinessHoursDay[] | null>(null);
  const [message, setMessage] = useState('');
  const [failures, setFailures] = useState<WeekFailures>({});
  const [messageFailure, setMessageFailure] = useState<string | null>(null);
  const [saveHours, savingHours] = useUpdateBusinessHoursMutation();
  const [saveMessage, savingMessage] = useUpdateBusinessHoursMessageMutation();

  // The form starts from the server's week (completed with the default days) and follows it
  // when another admin saves, unless this form has unsaved edits.
  const [dirty, setDirty] = useState({ hours: false, message: false });
  useEffect(() => {
    if (!query.data) return;
    if (!dirty.hours) setDays(withDefaultWeek(query.data.businessHours));
    if (!dirty.message) setMessage(query.data.messageBusinessHours ?? '');
  }, [query.data]);

  if (query.isLoading || (!days && !query.isError)) {
    return (
      <div className="page">
        <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />
      </div>
    );
  }
  if (query.isError || !days) {
    return (
      <div className="page">
        <NonIdealState
          icon="warning-sign"
          title={t('crud.loadFailed')}
          action={<Button icon="refresh" text={t('common.retry')} onClick={() => void query.refetch()} />}
        />
      </div>
    );
  }

  const changeDay = (day: number, change: Partial<BusinessHoursDay>) => {
    setDays(days.map((entry) => (entry.day === day ? { ...entry, ...change } : entry)));
    setDirty((current) => ({ ...current, hours: true }));
    if (failures[day]) setFailures({ ...failures, [day]: {} });
  };

  const submitHours = async () => {
    const found = validateWeek(days);
    setFailures(found);
    if (Object.keys(found).length > 0) {
      showToast(t('validation.formHasErrors'), 'warning');
      return;
    }
    const result = await saveHours(toRequestDays(days));
    if ('error' in result) return; // the base query toasted the server's reason
    setDirty((current) => ({ ...current, hours: false }));
    setDays(withDefaultWeek(result.data.businessHours));
    showToast(t('businessHours.saved'), 'success');
  };

  const submitMessage = async () => {
    if (validateAbsenceMessage(message)) {
      setMessageFailure(t('crud.validation.tooLong', { max: BUSINESS_HOURS_MESSAGE_MAX }));
      return;
    }
    setMessageFailure(null);
    const result = await saveMessage(message.trim());
    if ('error' in result) return;
    setDirty((current) => ({ ...current, message: false }));
    showToast(t('businessHours.messageSaved'), 'success');
  };

  return (
    <div className="page crud-page" data-testid="page-horarioAtendimento">
      <PageHeader title={t('routes.horarioAtendimento')} description={t('businessHours.description')} />
      <Card className="business-hours-card">
        <H5>{t('businessHours.weekTitle')}</H5>
        <BusinessHoursWeekTable days={days} failures={failures} disabled={!canWrite} onChange={changeDay} />
        <p className="crud-muted business-hours-hint">{t('businessHours.periodsHint')}</p>
        {canWrite ? (
          <div className="crud-footer">
            <span />
            <Button
              intent="primary"
              icon="floppy-disk"
              text={t('businessHours.saveHours')}
              loading={savingHours.isLoading}
              onClick={() => void submitHours()}
              data-testid="business-hours-save"
            />
          </div>
        ) : null}
      </Card>
      <Card className="business-hours-card">
        <H5>{t('businessHours.messageTitle')}</H5>
        <FormGroup
          labelFor="business-hours-message"
          label={t('businessHours.message')}
          intent={messageFailure ? 'danger' : 'none'}
          helperText={messageFailure ?? t('businessHours.messageHelp')}
        >
          <TextArea
            id="business-hours-message"
            fill
            rows={4}
            value={message}
            disabled={!canWrite}
            intent={messageFailure ? 'danger' : 'none'}
            onChange={(event) => {
              setMessage(event.currentTarget.value);
              setDirty((current) => ({ ...current, message: true }));
            }}
          />
        </FormGroup>
        {canWrite ? (
          <div className="crud-footer">
            <span className="crud-muted">
              {t('businessHours.characters', { count: message.trim().length, max: BUSINESS_HOURS_MESSAGE_MAX })}
            </span>
            <Button
              intent="primary"
              icon="floppy-disk"
              text={t('businessHours.saveMessage')}
              loading={savingMessage.isLoading}
              onClick={() => void submitMessage()}
              data-testid="business-hours-message-save"
            />
          </div>
        ) : null}
      </Card>
    </div>
  );
}
