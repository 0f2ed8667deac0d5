import { Callout, Card, ControlGroup, FormGroup, H5, HTMLSelect, InputGroup, NonIdealState, Spinner, Switch, Button } from '@blueprintjs/core';
import { AUTO_CLOSE_VALUES, SETTING_VALUE_SCHEMAS } from '@shared/schemas/settings';
import type { SettingKey } from '@shared/settings';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListSettingsQuery, useUpdateSettingMutation } from '../../api/settings.api';
import { showToast } from '../../app/feedback/toaster';
import { useWriteAccess } from '../../app/crud/write-access';
import { EXCLUSIVE_TICKET_VIEW_SETTINGS, VISIBILITY_KEYS, conflictOfChange, isEnabled, settingValues } from './settings-conflict';
import { SettingsTabs } from './settings-tabs';
import '../../app/crud/crud.css';
import { PageHeader } from '../../app/layout/page-header';

/**
 * /configuracoes/geral: the tenant's ticket-visibility rules (spec section 6), the forced
 * signature, automatic closing (spec section 9), the campaign opt-out words and the internal-chat
 * message limit (spec section 9). Each switch or choice is saved at once, a text or number with its
 * Save button; administrators only (others read).
 */
export function GeneralSettingsPage() {
  const { t } = useTranslation();
  const { canAdmin } = useWriteAccess();
  const query = useListSettingsQuery();
  const [updateSetting] = useUpdateSettingMutation();
  const [saving, setSaving] = useState<SettingKey | null>(null);
  const [blocked, setBlocked] = useState<{ key: SettingKey; keys: SettingKey[] } | null>(null);
  const values = settingValues(query.data);

  const save = async (key: SettingKey, value: string) => {
    const conflict = conflictOfChange(values, key, value);
    if (conflict) {
      setBlocked({ key, keys: conflict });
      return;
    }
    setBlocked(null);
    setSaving(key);
    const result = await updateSetting({ key, value });
    setSaving(null);
    if (!('error' in result)) showToast(t('settings.saved'), 'success');
  };

  if (query.isLoading) {
    return (
      <div className="page crud-page">
        <SettingsTabs />
        <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="page crud-page">
        <SettingsTabs />
        <NonIdealState
          icon="warning-sign"
          title={t('crud.loadFailed')}
          action={<Button icon="refresh" text={t('common.retry')} onClick={() => void query.refetch()} />}
        />
      </div>
    );
  }

  const toggle = (key: SettingKey) => (
    <div className="settings-switch" key={key} data-testid={`setting-${key}`}>
      <Switch
        size="large"
        checked={isEnabled(values[key])}
        disabled={!canAdmin || saving === key}
        label={t(`settings.keys.${key}.label`)}
        onChange={(event) => void save(key, event.currentTarget.checked ? 'enabled' : 'disabled')}
      />
      <p className="settings-help">{t(`settings.keys.${key}.help`)}</p>
      {blocked?.key === key ? (
        <Callout intent="warning" icon="warning-sign" role="alert" className="settings-conflict" data-testid="settings-conflict">
          {t('settings.conflict', {
            names: blocked.keys.map((name) => `"${t(`settings.keys.${name}.label`)}"`).join(', '),
          })}
        </Callout>
      ) : null}
    </div>
  );

  return (
    <div className="page crud-page" data-testid="page-configuracoes-geral">
      <SettingsTabs />
      <PageHeader title={t('routes.configuracoes/geral')} description={t('settings.description')} />
      {!canAdmin ? (
        <Callout icon="lock" className="crud-page-notice" data-testid="read-only-notice">
          {t('settings.adminOnly')}
        </Callout>
      ) : null}
      <Card className="settings-card">
        <H5>{t('settings.visibilityTitle')}</H5>
        <Callout icon="info-sign" className="settings-rule" data-testid="settings-rule">
          {t('settings.rule', {
            names: EXCLUSIVE_TICKET_VIEW_SETTINGS.map((name) => `"${t(`settings.keys.${name}.label`)}"`).join(', '),
          })}
        </Callout>
        {VISIBILITY_KEYS.map(toggle)}
      </Card>
      <Card className="settings-card">
        <H5>{t('settings.messagesTitle')}</H5>
        {toggle('forceSignature')}
      </Card>
      <Card className="settings-card">
        <H5>{t('settings.campaignsTitle')}</H5>
        <TextSetting
          settingKey="campaignOptOutWords"
          value={values.campaignOptOutWords}
          disabled={!canAdmin || saving === 'campaignOptOutWords'}
          onSave={(value) => save('campaignOptOutWords', value)}
        />
      </Card>
      <Card className="settings-card">
        <H5>{t('settings.internalChatTitle')}</H5>
        <TextSetting
          settingKey="internalChatMessageMax"
          inputType="number"
          value={values.internalChatMessageMax}
          disabled={!canAdmin || saving === 'internalChatMessageMax'}
          onSave={(value) => save('internalChatMessageMax', value)}
        />
      </Card>
      <Card className="settings-card">
        <H5>{t('settings.autoCloseTitle')}</H5>
        <FormGroup
          label={t('settings.keys.autoCloseTicketsMinutes.label')}
          labelFor="setting-auto-close"
          helperText={t('settings.keys.autoCloseTicketsMinutes.help')}
        >
          <HTMLSelect
            id="setting-auto-close"
            value={values.autoCloseTicketsMinutes}
            disabled={!canAdmin || saving === 'autoCloseTicketsMinutes'}
            onChange={(event) => void save('autoCloseTicketsMinutes', event.currentTarget.value)}
            data-testid="setting-autoCloseTicketsMinutes"
          >
            {AUTO_CLOSE_VALUES.map((minutes) => (
              <option key={minutes} value={minutes}>
                {t(`settings.autoClose.${minutes}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      </Card>
    </div>
  );
}

/**
 * A text setting: edited in place, checked with the server's rule (SETTING_VALUE_SCHEMAS), saved
 * with its button (or Enter); the saved value comes back through the settings query.
 */
function TextSetting({
  settingKey,
  value,
  disabled,
  onSave,
  inputType = 'text',
}: {
  settingKey: SettingKey;
  value: string;
  disabled: boolean;
  onSave: (value: string) => Promise<void>;
  inputType?: 'text' | 'number';
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const checked = SETTING_VALUE_SCHEMAS[settingKey].safeParse(draft);
  const error = checked.success ? null : (checked.error.issues[0]?.message ?? '');
  const changed = draft !== value;
  const submit = () => {
    if (!disabled && changed && checked.success) void onSave(checked.data);
  };
  const id = `setting-${settingKey}`;
  return (
    <FormGroup
      label={t(`settings.keys.${settingKey}.label`)}
      labelFor={id}
      helperText={error ? t(`settings.keys.${settingKey}.invalid`, { message: error }) : t(`settings.keys.${settingKey}.help`)}
      intent={error ? 'danger' : 'none'}
    >
      <ControlGroup fill>
        <InputGroup
          id={id}
          type={inputType}
          value={draft}
          disabled={disabled}
          intent={error ? 'danger' : 'none'}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit();
          }}
          data-testid={id}
        />
        <Button
          icon="floppy-disk"
          text={t(`settings.keys.${settingKey}.save`)}
          disabled={disabled || !changed || !checked.success}
          onClick={submit}
          data-testid={`${id}-save`}
        />
      </ControlGroup>
    </FormGroup>
  );
}
