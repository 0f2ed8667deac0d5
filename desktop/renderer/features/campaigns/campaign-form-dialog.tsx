import { Button, FileInput, FormGroup, Tag } from '@blueprintjs/core';
import {
  CAMPAIGN_DELAY_DEFAULT,
  CampaignSchema,
  emptyTemplateVariables,
  type CampaignDto,
  type CampaignTemplateVariables,
} from '@shared/schemas/campaigns';
import { messageVariableToken, type MessageVariable } from '@shared/message-variables';
import { sizeTemplateVariables } from '@shared/schemas/templates';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useListChannelTemplatesQuery } from '../../api/bulk-sends.api';
import { useCreateCampaignMutation, useUpdateCampaignMutation } from '../../api/campaigns.api';
import { useListChannelsQuery } from '../../api/channels.api';
import { useListQueuesQuery } from '../../api/queues.api';
import { FormDialog } from '../../app/crud/form-dialog';
import { showToast } from '../../app/feedback/toaster';
import { formSummaryMessage } from '../../app/forms/field-text';
import { SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { MessageVariablesHelp } from '../quick-messages/message-variables-help';
import { insertAtCursor } from '../quick-messages/quick-message-form.logic';
import { instantOf, wallTimeOf } from '../schedules/schedule-time';
import { TemplateVariableFields, templateVariablePaths } from '../templates/template-variable-fields';
import { splitTemplateKey, templateKey } from './template-key';

/** What the fields hold: the start as a wall time in the tenant's zone, numbers and ids as texts. */
export interface CampaignFormValues {
  name: string;
  start: string;
  message1: string;
  message2: string;
  message3: string;
  delay: string;
  channelId: string;
  queueId: string;
  /** `name\u0001language` of the chosen WABA template, or '' for free text. */
  template: string;
  /** The chosen template's header, body and button variable texts. */
  templateVariables: CampaignTemplateVariables;
}

const FIELDS = ['name', 'start', 'message1', 'message2', 'message3', 'delay', 'channelId', 'queueId', 'templateName', 'templateVariables'];

type MessageField = 'message1' | 'message2' | 'message3';

/**
 * Create or edit a campaign (/campanhas): name, start (date and time in the tenant's zone), up to
 * 3 messages with the variables of spec section 2 (one is chosen per contact), an optional file,
 * the sending channel, the queue for the answers and the delay between sends. Validated by the
 * server's own schema (CampaignSchema) after the wall time is read in the tenant's zone.
 */
export function CampaignFormDialog({ campaign, timeZone, onClose }: { campaign: CampaignDto | null; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const refs = { message1: useRef<HTMLTextAreaElement | null>(null), message2: useRef<HTMLTextAreaElement | null>(null), message3: useRef<HTMLTextAreaElement | null>(null) };
  const [focused, setFocused] = useState<MessageField>('message1');
  const channels = useListChannelsQuery();
  const queues = useListQueuesQuery();
  // The shared schema, reading the form's wall time as an instant of the tenant's zone.
  const schema = useMemo(
    () =>
      z.preprocess((v) => {
        const values = v as CampaignFormValues;
        const instant = values.start ? instantOf(values.start, timeZone) : null;
        const template = splitTemplateKey(values.template ?? '');
        const { template: _key, ...rest } = values;
        return {
          ...rest,
          start: instant ? instant.toISOString() : values.start || undefined,
          channelId: values.channelId || undefined,
          templateName: template?.name ?? null,
          templateLanguage: template?.language ?? null,
          templateVariables: template ? values.templateVariables : {},
        };
      }, CampaignSchema),
    [timeZone],
  );
  const form = useZodForm<CampaignFormValues, unknown>(schema, {
    name: campaign?.name ?? '',
    start: campaign ? wallTimeOf(new Date(campaign.start), timeZone) : wallTimeOf(new Date(Date.now() + 10 * 60_000), timeZone),
    message1: campaign?.message1 ?? '',
    message2: campaign?.message2 ?? '',
    message3: campaign?.message3 ?? '',
    delay: String(campaign?.delay ?? CAMPAIGN_DELAY_DEFAULT),
    channelId: campaign?.channelId ? String(campaign.channelId) : '',
    queueId: campaign?.queueId ? String(campaign.queueId) : '',
    template: campaign?.templateName && campaign.templateLanguage ? templateKey(campaign.templateName, campaign.templateLanguage) : '',
    templateVariables: campaign?.templateVariables ?? emptyTemplateVariables(),
  });
  const channelId = form.watch('channelId');
  const chosenKey = form.watch('template');
  const channel = (channels.data ?? []).find((c) => String(c.id) === channelId);
  const isWaba = channel?.type === 'waba';
  const templates = useListChannelTemplatesQuery(Number(channelId), { skip: !isWaba });
  // Only approved templates may be chosen (the server refuses the others).
  const approved = (templates.data ?? []).filter((x) => x.status.toUpperCase() === 'APPROVED');
  const chosen = isWaba ? approved.find((x) => templateKey(x.name, x.language) === chosenKey) : undefined;
  const usesTemplate = Boolean(isWaba && chosenKey);
  // One input per variable of the chosen template: the stored texts kept when it is the
  // campaign's own, emptied when another template is chosen.
  const sizedFor = useRef(chosenKey);
  useEffect(() => {
    if (!chosen) return;
    const key = templateKey(chosen.name, chosen.language);
    const current = sizedFor.current === key ? form.getValues('templateVariables') : emptyTemplateVariables();
    sizedFor.current = key;
    form.setValue('templateVariables', sizeTemplateVariables(chosen.components, current));
  }, [chosen, form]);
  const [createCampaign, creating] = useCreateCampaignMutation();
  const [updateCampaign, updating] = useUpdateCampaignMutation();

  const insertVariable = (variable: MessageVariable) => {
    const input = refs[focused].current;
    const text = form.getValues(focused);
    const at = insertAtCursor(text, input?.selectionStart ?? text.length, input?.selectionEnd ?? text.length, messageVariableToken(variable));
    form.setValue(focused, at.text);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(at.cursor, at.cursor);
    });
  };

  const submit = form.handleSubmit(async () => {
    const v = form.getValues();
    const template = usesTemplate ? splitTemplateKey(v.template) : null;
    const fields = {
      name: v.name,
      start: instantOf(v.start, timeZone)!.toISOString(),
      message1: template ? '' : v.message1,
      message2: v.message2 || null,
      message3: v.message3 || null,
      delay: Number(v.delay),
      channelId: Number(v.channelId),
      queueId: v.queueId ? Number(v.queueId) : null,
      ...(removeMedia && !file ? { removeMedia: true } : {}),
      templateName: template?.name ?? null,
      templateLanguage: template?.language ?? null,
      templateVariables: template ? (chosen ? sizeTemplateVariables(chosen.components, v.templateVariables) : v.templateVariables) : emptyTemplateVariables(),
    };
    try {
      if (campaign) await updateCampaign({ id: campaign.id, fields, file }).unwrap();
      else await createCampaign({ fields, file }).unwrap();
      showToast(t('campaigns.saved'), 'success');
      onClose();
    } catch (error) {
      showServerFailure(form.setError, error, t, [...FIELDS, ...(chosen ? templateVariablePaths('templateVariables', chosen.components) : [])]);
    }
  });

  const messageField = (name: MessageField, index: number) => (
    <div onFocus={() => setFocused(name)}>
      <TextAreaField
        control={form.control}
        name={name}
        label={t('campaigns.message', { index })}
        required={index === 1}
        rows={3}
        testId={`campaign-${name}`}
        textAreaRef={(element) => {
          refs[name].current = element;
        }}
      />
    </div>
  );

  return (
    <FormDialog
      isOpen
      wide
      title={campaign ? t('campaigns.editTitle') : t('campaigns.createTitle')}
      icon="announcement"
      saving={form.formState.isSubmitting || creating.isLoading || updating.isLoading}
      error={formSummaryMessage(form.formState, t)}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="campaign-form"
    >
      <TextField control={form.control} name="name" label={t('campaigns.name')} required testId="campaign-name" />
      <TextField
        control={form.control}
        name="start"
        label={t('campaigns.start')}
        required
        helperText={t('campaigns.timeZone', { zone: timeZone })}
        testId="campaign-start"
        type="datetime-local"
      />
      {isWaba ? (
        <SelectField
          control={form.control}
          name="template"
          label={t('campaigns.template')}
          helperText={templates.isError ? t('campaigns.templatesFailed') : t('campaigns.templateHelp')}
          emptyLabel={t('campaigns.noTemplate')}
          options={approved.map((x) => ({ value: templateKey(x.name, x.language), label: `${x.name} (${x.language})` }))}
          testId="campaign-template"
        />
      ) : null}
      {usesTemplate ? (
        chosen ? (
          <TemplateVariableFields
            control={form.control}
            name="templateVariables"
            components={chosen.components}
            testIdPrefix="campaign-template"
            helperText={t('campaigns.templateVariableHelp')}
          />
        ) : null
      ) : (
        <>
          {messageField('message1', 1)}
          {messageField('message2', 2)}
          {messageField('message3', 3)}
          <MessageVariablesHelp onInsert={insertVariable} />
        </>
      )}
      <FormGroup label={t('campaigns.media')} labelFor="campaign-file" helperText={t('campaigns.mediaHelp')}>
        {campaign?.mediaName && !removeMedia && !file ? (
          <Tag minimal large icon="paperclip" onRemove={() => setRemoveMedia(true)} data-testid="campaign-media">
            {campaign.mediaName}
          </Tag>
        ) : (
          <FileInput
            fill
            inputProps={{ id: 'campaign-file', 'aria-label': t('campaigns.media') }}
            text={file ? file.name : t('campaigns.chooseFile')}
            buttonText={t('schedules.browse')}
            hasSelection={file !== null}
            onInputChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
        )}
        {file ? <Button variant="minimal" size="small" icon="cross" text={t('campaigns.removeFile')} onClick={() => setFile(null)} /> : null}
      </FormGroup>
      <div className="campaign-form-row">
        <SelectField
          control={form.control}
          name="channelId"
          label={t('campaigns.channel')}
          required
          emptyLabel={t('campaigns.chooseChannel')}
          options={(channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          testId="campaign-channel"
        />
        <SelectField
          control={form.control}
          name="queueId"
          label={t('campaigns.queue')}
          emptyLabel={t('campaigns.noQueue')}
          options={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
          testId="campaign-queue"
        />
        <TextField control={form.control} name="delay" label={t('campaigns.delay')} helperText={t('campaigns.delayHelp')} testId="campaign-delay" />
      </div>
    </FormDialog>
  );
}
