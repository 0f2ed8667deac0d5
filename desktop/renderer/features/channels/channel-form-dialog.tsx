import { Callout, FormGroup, H6, HTMLSelect, InputGroup, NumericInput, Switch, TextArea } from '@blueprintjs/core';
import { AUTO_DISTRIBUTION_VALUES, GenerativeChatSchema, type GenerativeChatInput } from '@shared/schemas/channels';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateChannelMutation, useUpdateChannelMutation, type Channel, type CreateChannelBody } from '../../api/channels.api';
import { useListChatFlowsQuery } from '../../api/chatflow.api';
import { useListQueuesQuery } from '../../api/queues.api';
import { useListAllTenantUsersQuery } from '../../api/users.api';
import { showToast } from '../../app/feedback/toaster';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import {
  CHANNEL_TYPES,
  buildCreateBody,
  buildUpdateBody,
  changeFormType,
  evolutionNamePreview,
  generativeChatBody,
  generativeChatErrors,
  initialChannelForm,
  initialGenerativeChatValues,
  isSecretStored,
  providerFieldsFor,
  validateOptionsJson,
  type ChannelFormState,
  type ChannelType,
  type FieldErrors,
  type GenerativeChatValues,
  type ProviderField,
} from './channel-form.logic';
import { GenerativeChatSection } from './generative-chat-section';

/** Fields whose i18n help text exists (`channels.fieldHelp.<name>`). */
const FIELD_HELP = new Set([
  'wabaApiVersion',
  'tokenTelegram',
  'pairingNumber',
  'proxyUrl',
  'evolutionUrl',
  'wuzapiUrl',
  'meowUrl',
  'hubChannelId',
]);

/**
 * Create or edit a channel (spec sections 3 and 5): the type (creation only) decides which
 * provider fields show; secrets are write-only (an input of a stored secret says so and may stay
 * empty); behaviour fields; advanced options as JSON checked here as the server checks it.
 */
export function ChannelFormDialog({ channel, onClose }: { channel: Channel | null; onClose(): void }) {
  const { t } = useTranslation();
  const editing = channel !== null;
  const [form, setForm] = useState<ChannelFormState>(() => initialChannelForm(channel, channel?.type ?? 'telegram'));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ message: string; code: string | null } | null>(null);
  const [createChannel, creating] = useCreateChannelMutation();
  const [updateChannel, updating] = useUpdateChannelMutation();
  const queues = useListQueuesQuery();
  const users = useListAllTenantUsersQuery();
  const chatFlows = useListChatFlowsQuery();
  // The generative chat section (editing only): its own react-hook-form form on the shared
  // schema, sent with the rest of the channel in the one PUT.
  const generative = useZodForm<GenerativeChatValues, GenerativeChatInput>(GenerativeChatSchema, initialGenerativeChatValues(channel));

  const change = (patch: Partial<ChannelFormState>, ...fields: string[]) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });
    setFailure(null);
  };
  const changeProvider = (name: string, value: string) => change({ provider: { ...form.provider, [name]: value } }, name);

  const submit = async () => {
    setFailure(null);
    if (!channel) return save(undefined);
    // The section's schema first (its messages under its fields); the channel's own checks are
    // shown either way.
    await generative.handleSubmit(
      (parsed) => save(parsed),
      () => setErrors(buildUpdateBody(channel, form).errors),
    )();
  };

  const save = async (generativeChat: GenerativeChatInput | undefined) => {
    try {
      if (channel) {
        const { body: built, errors: local } = buildUpdateBody(channel, form);
        setErrors(local);
        if (Object.keys(local).length > 0) return;
        const chat = generativeChat ? generativeChatBody(channel, generativeChat) : undefined;
        const body = chat ? { ...(built ?? {}), generativeChat: chat } : built;
        if (body) await updateChannel({ id: channel.id, body }).unwrap();
      } else {
        const { body, errors: local } = buildCreateBody(form);
        setErrors(local);
        if (Object.keys(local).length > 0) return;
        await createChannel(body as CreateChannelBody).unwrap();
      }
      showToast(t('channels.saved'), 'success');
      onClose();
    } catch (error) {
      const refused = formFailureOf(error, t);
      const body = (error as { data?: { message?: unknown } } | undefined)?.data;
      // ERR_CHANNEL_TYPE_UNSUPPORTED carries the type in the server's sentence: show that one.
      const message =
        refused.code === 'ERR_CHANNEL_TYPE_UNSUPPORTED' && typeof body?.message === 'string' ? body.message : refused.message;
      setFailure({ message, code: refused.code });
      setErrors(refused.fields);
      for (const [name, text] of Object.entries(generativeChatErrors(refused.fields))) {
        generative.setError(name as keyof GenerativeChatValues, { type: 'server', message: text });
      }
    }
  };

  const fieldError = (name: string) => errors[name];
  /** A form group's intent and helper text: the field's error, else its help. */
  const errorProps = (name: string, help: string) => ({
    intent: fieldError(name) ? ('danger' as const) : ('none' as const),
    helperText: fieldError(name) ?? help,
  });
  const providerFields = providerFieldsFor(form.type);

  const renderProviderField = (field: ProviderField) => {
    const id = `channel-${field.name}`;
    const stored = field.secret && isSecretStored(channel, field.name);
    const error = fieldError(field.name);
    const help = stored
      ? t('channels.secretStoredHelp')
      : FIELD_HELP.has(field.name)
        ? t(`channels.fieldHelp.${field.name}`)
        : field.secret
          ? t('channels.secretHelp')
          : undefined;
    return (
      <FormGroup
        key={field.name}
        label={t(`channels.fields.${field.name}`)}
        labelFor={id}
        labelInfo={field.required && !stored ? '*' : undefined}
        intent={error ? 'danger' : 'none'}
        helperText={error ?? help}
      >
        <InputGroup
          id={id}
          name={field.name}
          type={field.secret ? 'password' : field.input === 'url' ? 'url' : 'text'}
          inputMode={field.input === 'digits' ? 'numeric' : undefined}
          autoComplete={field.secret ? 'new-password' : 'off'}
          placeholder={stored ? t('channels.secretStored') : undefined}
          value={form.provider[field.name] ?? ''}
          intent={error ? 'danger' : 'none'}
          onChange={(event) => changeProvider(field.name, event.currentTarget.value)}
          data-testid={`channel-field-${field.name}`}
        />
      </FormGroup>
    );
  };

  const optionsError = fieldError('options');
  const evoPreview = form.type === 'evo' && !editing && form.name.trim() !== '' ? evolutionNamePreview(form.name) : null;

  return (
    <FormDialog
      isOpen
      wide
      title={editing ? t('channels.editTitle', { name: channel.name }) : t('channels.createTitle')}
      icon="mobile-phone"
      saving={creating.isLoading || updating.isLoading}
      error={failure?.message}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="channel-form"
    >
      {failure?.code === 'ERR_CHANNEL_TYPE_UNSUPPORTED' ? (
        <Callout intent="warning" icon="build" className="channel-form-callout" data-testid="channel-type-unsupported">
          {t('channels.unsupportedHelp', { type: t(`channels.types.${form.type}`) })}
        </Callout>
      ) : null}
      <div className="channel-form-grid">
        <FormGroup
          label={t('channels.type')}
          labelFor="channel-type"
          labelInfo="*"
          helperText={editing ? t('channels.typeLocked') : undefined}
        >
          <HTMLSelect
            id="channel-type"
            fill
            value={form.type}
            disabled={editing}
            onChange={(event) => {
              // Read now: React may run the updater after the event's currentTarget is gone.
              const type = event.currentTarget.value as ChannelType;
              setForm((current) => changeFormType(current, type));
              setErrors({});
              setFailure(null);
            }}
            data-testid="channel-type"
          >
            {CHANNEL_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`channels.types.${type}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup
          label={t('crud.name')}
          labelFor="channel-name"
          labelInfo="*"
          intent={fieldError('name') ? 'danger' : 'none'}
          helperText={
            fieldError('name') ??
            (editing && form.type === 'evo'
              ? t('channels.evoNameLocked')
              : evoPreview !== null
                ? t('channels.evoNamePreview', { name: evoPreview || '—' })
                : form.type === 'evo'
                  ? t('channels.evoNameRule')
                  : undefined)
          }
        >
          <InputGroup
            id="channel-name"
            autoFocus={!editing}
            value={form.name}
            disabled={editing && form.type === 'evo'}
            intent={fieldError('name') ? 'danger' : 'none'}
            onChange={(event) => change({ name: event.currentTarget.value }, 'name')}
            data-testid="channel-name"
          />
        </FormGroup>
      </div>

      {providerFields.length > 0 ? (
        <section className="channel-form-section" data-testid="channel-provider-fields">
          <H6>{t('channels.sections.provider', { type: t(`channels.types.${form.type}`) })}</H6>
          <div className="channel-form-grid">{providerFields.map(renderProviderField)}</div>
        </section>
      ) : null}

      <section className="channel-form-section">
        <H6>{t('channels.sections.behaviour')}</H6>
        <div className="channel-form-grid">
          <FormGroup label={t('channels.queue')} labelFor="channel-queue" {...errorProps('queueId', t('channels.queueHelp'))}>
            <IdSelect
              id="channel-queue"
              value={form.queueId}
              none={t('channels.noQueue')}
              options={queues.data ?? []}
              onChange={(queueId) => change({ queueId }, 'queueId')}
            />
          </FormGroup>
          <FormGroup label={t('channels.user')} labelFor="channel-user" {...errorProps('userId', t('channels.userHelp'))}>
            <IdSelect
              id="channel-user"
              value={form.userId}
              none={t('channels.noUser')}
              options={users.data ?? []}
              onChange={(userId) => change({ userId }, 'userId')}
            />
          </FormGroup>
          <FormGroup
            label={t('channels.chatFlow')}
            labelFor="channel-chatflow"
            {...errorProps('chatFlowId', t('channels.chatFlowHelp'))}
          >
            <IdSelect
              id="channel-chatflow"
              value={form.chatFlowId}
              none={t('channels.noChatFlow')}
              options={(chatFlows.data ?? []).map((flow) => ({
                id: flow.id,
                name: flow.active ? flow.name : `${flow.name} (${t('crud.inactiveState').toLowerCase()})`,
              }))}
              onChange={(chatFlowId) => change({ chatFlowId }, 'chatFlowId')}
            />
          </FormGroup>
          <FormGroup
            label={t('channels.autoDistribution')}
            labelFor="channel-auto-distribution"
            helperText={t('channels.autoDistributionHelp')}
          >
            <HTMLSelect
              id="channel-auto-distribution"
              fill
              value={form.autoDistribution}
              onChange={(event) =>
                change(
                  { autoDistribution: event.currentTarget.value as ChannelFormState['autoDistribution'] },
                  'autoDistribution',
                )
              }
              data-testid="channel-auto-distribution"
            >
              {AUTO_DISTRIBUTION_VALUES.map((value) => (
                <option key={value} value={value}>
                  {t(`channels.autoDistributionValues.${value}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup
            label={t('channels.closingKeyword')}
            labelFor="channel-closing-keyword"
            {...errorProps('closingKeyword', t('channels.closingKeywordHelp'))}
          >
            <InputGroup
              id="channel-closing-keyword"
              value={form.closingKeyword}
              onChange={(event) => change({ closingKeyword: event.currentTarget.value }, 'closingKeyword')}
              data-testid="channel-closing-keyword"
            />
          </FormGroup>
        </div>
        <FormGroup
          label={t('channels.farewellMessage')}
          labelFor="channel-farewell"
          {...errorProps('farewellMessage', t('channels.farewellMessageHelp'))}
        >
          <TextArea
            id="channel-farewell"
            fill
            rows={2}
            value={form.farewellMessage}
            onChange={(event) => change({ farewellMessage: event.currentTarget.value }, 'farewellMessage')}
            data-testid="channel-farewell"
          />
        </FormGroup>
        <div className="channel-form-grid channel-form-grid-birthday">
          <FormGroup
            label={t('channels.birthdayMessage')}
            labelFor="channel-birthday"
            {...errorProps('birthdayMessage', t('channels.birthdayMessageHelp'))}
          >
            <TextArea
              id="channel-birthday"
              fill
              rows={2}
              value={form.birthdayMessage}
              onChange={(event) => change({ birthdayMessage: event.currentTarget.value }, 'birthdayMessage')}
              data-testid="channel-birthday"
            />
          </FormGroup>
          <FormGroup
            label={t('channels.birthdayHour')}
            labelFor="channel-birthday-hour"
            {...errorProps('birthdayHour', t('channels.birthdayHourHelp'))}
          >
            <NumericInput
              id="channel-birthday-hour"
              fill
              min={0}
              max={23}
              stepSize={1}
              minorStepSize={null}
              allowNumericCharactersOnly
              value={form.birthdayHour}
              onValueChange={(_value, text) => change({ birthdayHour: text }, 'birthdayHour')}
              intent={fieldError('birthdayHour') ? 'danger' : 'none'}
              data-testid="channel-birthday-hour"
            />
          </FormGroup>
        </div>
        <Switch
          label={t('channels.isDefault')}
          checked={form.isDefault}
          disabled={editing && channel.isDefault}
          onChange={(event) => change({ isDefault: event.currentTarget.checked }, 'isDefault')}
          data-testid="channel-is-default"
        />
      </section>

      {editing ? <GenerativeChatSection form={generative} channel={channel} /> : null}

      <section className="channel-form-section">
        <H6>{t('channels.sections.advanced')}</H6>
        <FormGroup
          label={t('channels.options')}
          labelFor="channel-options"
          intent={optionsError ? 'danger' : 'none'}
          helperText={optionsError ?? t('channels.optionsHelp')}
        >
          <TextArea
            id="channel-options"
            fill
            rows={4}
            className="channel-options-input"
            spellCheck={false}
            placeholder='{"rejectCalls": true}'
            value={form.options}
            intent={optionsError ? 'danger' : 'none'}
            onChange={(event) => change({ options: event.currentTarget.value }, 'options')}
            onBlur={() => {
              const problem = validateOptionsJson(form.options);
              if (problem) setErrors((current) => ({ ...current, options: problem }));
            }}
            data-testid="channel-options"
          />
        </FormGroup>
      </section>
    </FormDialog>
  );
}

/** A choice of one of the tenant's queues or users, or none; the id doubles as the test id. */
function IdSelect(props: {
  id: string;
  value: number | null;
  none: string;
  options: { id: number; name: string }[];
  onChange(value: number | null): void;
}) {
  return (
    <HTMLSelect
      id={props.id}
      fill
      value={props.value === null ? '' : String(props.value)}
      onChange={(event) => props.onChange(event.currentTarget.value ? Number(event.currentTarget.value) : null)}
      data-testid={props.id}
    >
      <option value="">{props.none}</option>
      {props.options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </HTMLSelect>
  );
}
