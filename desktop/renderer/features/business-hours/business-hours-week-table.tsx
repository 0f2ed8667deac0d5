import { HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core';
import { BUSINESS_DAY_TYPES, type BusinessDayType, type BusinessHoursDay } from '@shared/schemas/tenant-settings';
import { useTranslation } from 'react-i18next';
import { HOUR_FIELDS, type HourFailure, type WeekFailures } from './business-hours-form.logic';
import '../../app/crud/crud.css';
import './business-hours-week-table.css';

const FAILURE_KEYS: Record<HourFailure, string> = {
  invalidTime: 'businessHours.errors.invalidTime',
  endBeforeStart: 'businessHours.errors.endBeforeStart',
  secondBeforeFirst: 'businessHours.errors.secondBeforeFirst',
};

/**
 * The week of business hours as a table: per weekday the type (O open all day, C closed, H by
 * hours) and the two periods of an H day, each wrong hour marked where it is. Used by
 * /horario-atendimento (the tenant's week) and the queue dialog (a queue's own week).
 */
export function BusinessHoursWeekTable({
  days,
  failures,
  disabled,
  onChange,
}: {
  days: BusinessHoursDay[];
  failures: WeekFailures;
  disabled: boolean;
  onChange(day: number, change: Partial<BusinessHoursDay>): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="business-hours-scroll">
      <HTMLTable className="crud-table business-hours-table" compact data-testid="business-hours-table">
        <thead>
          <tr>
            <th>{t('businessHours.weekday')}</th>
            <th>{t('businessHours.type')}</th>
            <th>{t('businessHours.firstPeriod')}</th>
            <th>{t('businessHours.secondPeriod')}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => {
            const dayFailures = failures[day.day] ?? {};
            const hourInput = (field: (typeof HOUR_FIELDS)[number]) => (
              <InputGroup
                type="time"
                className="business-hours-time"
                value={day[field]}
                disabled={disabled || day.type !== 'H'}
                intent={dayFailures[field] ? 'danger' : 'none'}
                aria-label={t(`businessHours.fields.${field}`, { day: t(`businessHours.weekdays.${day.day}`) })}
                aria-invalid={dayFailures[field] ? true : undefined}
                onChange={(event) => onChange(day.day, { [field]: event.currentTarget.value })}
                data-testid={`day-${day.day}-${field}`}
              />
            );
            const periodError = (fields: ('hr1' | 'hr2' | 'hr3' | 'hr4')[]) => {
              const failure = fields.map((field) => dayFailures[field]).find(Boolean);
              return failure ? (
                <div className="business-hours-error" role="alert" data-testid={`day-${day.day}-error`}>
                  {t(FAILURE_KEYS[failure])}
                </div>
              ) : null;
            };
            return (
              <tr key={day.day} data-testid={`day-${day.day}`}>
                <td className="business-hours-weekday">{t(`businessHours.weekdays.${day.day}`)}</td>
                <td>
                  <HTMLSelect
                    value={day.type}
                    disabled={disabled}
                    aria-label={t('businessHours.typeOf', { day: t(`businessHours.weekdays.${day.day}`) })}
                    onChange={(event) => onChange(day.day, { type: event.currentTarget.value as BusinessDayType })}
                    data-testid={`day-${day.day}-type`}
                  >
                    {BUSINESS_DAY_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(`businessHours.types.${type}`)}
                      </option>
                    ))}
                  </HTMLSelect>
                </td>
                {day.type === 'H' ? (
                  <>
                    <td>
                      <div className="business-hours-period">
                        {hourInput('hr1')}
                        <span>{t('businessHours.until')}</span>
                        {hourInput('hr2')}
                      </div>
                      {periodError(['hr1', 'hr2'])}
                    </td>
                    <td>
                      <div className="business-hours-period">
                        {hourInput('hr3')}
                        <span>{t('businessHours.until')}</span>
                        {hourInput('hr4')}
                      </div>
                      {periodError(['hr3', 'hr4'])}
                    </td>
                  </>
                ) : (
                  <td colSpan={2} className="crud-muted">
                    {day.type === 'O' ? t('businessHours.openAllDay') : t('businessHours.closedAllDay')}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}
