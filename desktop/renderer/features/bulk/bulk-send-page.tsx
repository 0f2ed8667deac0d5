import { Alert, Button, Callout, Card, H5, HTMLSelect, ProgressBar, Tag } from '@blueprintjs/core';
import { SOCKET_EVENTS } from '@shared/events';
import {
  BULK_DELAY_MAX_DEFAULT,
  BULK_DELAY_MIN_DEFAULT,
  BULK_MEDIA_TYPES,
  BulkSendSchema,
  bulkKindHasVariables,
  bulkKindIsTemplate,
  bulkTemplateLineVariables,
  highestLineVariable,
  parseBulkDestinations,
  type BulkInvalidLine,
  type BulkKind,
  type BulkMediaType,
  type ParsedBulkDestinations,
} from '@shared/schemas/bulk-sends';
import {
  campaignComplaintWarning,
  emptyTemplateVariables,
  type CampaignContactStatus,
  type CampaignTemplateVariables,
} from '@shared/schemas/campaigns';
import { messageVariableToken, type MessageVariable } from '@shared/message-variables';
import { sizeTemplateVariables } from '@shared/schemas/templates';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  useBulkSendResultsQuery,
  useCancelBulkSendMutation,
  useCreateBulkSendMutation,
  useGetBulkSendQuery,
  useListBulkSendsQuery,
  useListChannelTemplatesQuery,
  type BulkSendBody,
} from '../../api/bulk-sends.api';
import { useListChannelsQuery } from '../../api/channels.api';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { PageHeader } from '../../app/layout/page-header';
import { useLiveRefresh, useSettledRefetch } from '../../app/realtime/live-refresh';
import { formatCell } from '../../app/table/cell-format';
import { type DataColumn, type DataRow } from '../../app/table/data-table';
import { CampaignOutcomeTable } from '../campaigns/campaign-outcome-table';
import { STATUS_INTENT, campaignProgress } from '../campaigns/campaign-status';
import { splitTemplateKey, templateKey } from '../campaigns/template-key';
import { MessageVariablesHelp } from '../quick-messages/message-variables-help';
import { insertAtCursor } from '../quick-messages/quick-message-form.logic';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { TemplateVariableFields, templateVariablePaths } from '../templates/template-variable-fields';
import './bulk.css';

/** The screens that send (SMS stays "em construção": no SMS provider exists yet). */
export type BulkScreenKind = Exclude<BulkKind, 'sms'>;

const LIVE_EVENTS = [SOCKET_EVENTS.bulkSendUpdate];
const RESULT_INTENT: Record<CampaignContactStatus, 'none' | 'primary' | 'success' | 'danger'> = {
  pending: 'none',
  sending: 'primary',
  delivered: 'success',
  failed: 'danger',
};
const FIELDS = ['channelId', 'destinations', 'message', 'mediaUrl', 'mediaType', 'minDelay', 'maxDelay', 'templateName', 'templateVariables'];

interface BulkFormValues {
  channelId: string;
  destinations: string;
  message: string;
  mediaUrl: string;
  mediaType: string;
  minDelay: string;
  maxDelay: string;
  /** `name\u0001language` of the chosen template. */
  template: string;
  /** Kind `template`: header, body and buttons; `template-variavel`: header and buttons (the lines fill the body). */
  templateVariables: CampaignTemplateVariables;
}

/**
 * /massa/texto, /massa/textovariavel, /massa/template, /massa/template-variavel (one screen by
 * kind): the channel, the destinations (a number per line, or `number,var1,var2` for the
 * *variavel* kinds), the message and/or a media URL or a WABA template, the min and max seconds
 * between sends; the same shared schema as the server (BulkSendSchema). Before it starts, a
 * confirmation shows the valid and refused lines and the 2% complaint warning; then the send's
 * progress follows `bulkSend:update` live, with each destination's outcome.
 */
export function BulkSendPage({ kind }: { kind: BulkScreenKind }) {
  const { t, i18n } = useTranslation();
  const timeZone = useTenantTimeZone();
  const withVariables = bulkKindHasVariables(kind);
  const isTemplate = bulkKindIsTemplate(kind);
  const channels = useListChannelsQuery();
  const messageRef = useRef<HTMLTextAreaElement | null>(null);
  const schema = useMemo(
    () =>
      z.preprocess((v) => {
        const values = v as BulkFormValues;
        const template = splitTemplateKey(values.template ?? '');
        return {
          kind,
          channelId: values.channelId || undefined,
          destinations: values.destinations,
          minDelay: values.minDelay,
          maxDelay: values.maxDelay,
          ...(isTemplate
            ? {
                templateName: template?.name ?? null,
                templateLanguage: template?.language ?? null,
                templateVariables: values.templateVariables,
              }
            : { message: values.message, mediaUrl: values.mediaUrl, mediaType: values.mediaType || null }),
        };
      }, BulkSendSchema),
    [kind, isTemplate],
  );
  const form = useZodForm<BulkFormValues, unknown>(schema, {
    channelId: '',
    destinations: '',
    message: '',
    mediaUrl: '',
    mediaType: '',
    minDelay: String(BULK_DELAY_MIN_DEFAULT),
    maxDelay: String(BULK_DELAY_MAX_DEFAULT),
    template: '',
    templateVariables: emptyTemplateVariables(),
  });
  const channelId = form.watch('channelId');
  const chosenKey = form.watch('template');
  const channel = (channels.data ?? []).find((c) => String(c.id) === channelId);
  const templates = useListChannelTemplatesQuery(Number(channelId), { skip: !isTemplate || channel?.type !== 'waba' });
  const approved = (templates.data ?? []).filter((x) => x.status.toUpperCase() === 'APPROVED');
  const chosen = approved.find((x) => templateKey(x.name, x.language) === chosenKey);
  const bodyFromLines = kind === 'template-variavel';
  /** What is sent for the chosen template: one text per variable (the body's left to the lines in template-variavel). */
  const variablesFor = (typed: CampaignTemplateVariables): CampaignTemplateVariables => {
    if (!chosen) return typed;
    const sized = sizeTemplateVariables(chosen.components, typed);
    return bodyFromLines ? { ...sized, body: [] } : sized;
  };
  // One input per variable of the chosen template, emptied when another one is chosen.
  useEffect(() => {
    if (!chosen) return;
    const sized = sizeTemplateVariables(chosen.components);
    form.setValue('templateVariables', bodyFromLines ? { ...sized, body: [] } : sized);
  }, [chosen, bodyFromLines, form]);
  const channelOptions = (channels.data ?? []).filter((c) => !isTemplate || c.type === 'waba').map((c) => ({ value: String(c.id), label: c.name }));

  const [confirm, setConfirm] = useState<{ body: BulkSendBody; preview: ParsedBulkDestinations } | null>(null);
  const [createBulkSend, creating] = useCreateBulkSendMutation();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [lastInvalid, setLastInvalid] = useState<BulkInvalidLine[] | null>(null);

  const insertVariable = (variable: MessageVariable) => {
    const input = messageRef.current;
    const text = form.getValues('message');
    const at = insertAtCursor(text, input?.selectionStart ?? text.length, input?.selectionEnd ?? text.length, messageVariableToken(variable));
    form.setValue('message', at.text);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(at.cursor, at.cursor);
    });
  };

  const review = form.handleSubmit(() => {
    const v = form.getValues();
    const template = isTemplate ? splitTemplateKey(v.template) : null;
    const variablesNeeded =
      kind === 'textovariavel'
        ? highestLineVariable(v.message)
        : bodyFromLines
          ? bulkTemplateLineVariables(chosen?.bodyVariables ?? 0, v.templateVariables)
          : 0;
    const preview = parseBulkDestinations(v.destinations, { withVariables, variablesNeeded });
    if (preview.destinations.length === 0) {
      form.setError('destinations', { type: 'manual', message: t('bulk.noValidDestination') });
      return;
    }
    const body: BulkSendBody = {
      kind,
      channelId: Number(v.channelId),
      destinations: v.destinations,
      minDelay: Number(v.minDelay),
      maxDelay: Number(v.maxDelay),
      ...(isTemplate
        ? {
            templateName: template?.name ?? null,
            templateLanguage: template?.language ?? null,
            templateVariables: variablesFor(v.templateVariables),
          }
        : { message: v.message || null, mediaUrl: v.mediaUrl || null, mediaType: (v.mediaType || null) as BulkMediaType | null }),
    };
    setConfirm({ body, preview });
  });

  const start = async () => {
    if (!confirm) return;
    const { body } = confirm;
    setConfirm(null);
    try {
      const created = await createBulkSend(body).unwrap();
      setSelectedId(created.id);
      setLastInvalid(created.invalidLines);
      showToast(t('bulk.started', { count: created.counts.contacts }), 'success');
    } catch (error) {
      showServerFailure(form.setError, error, t, [...FIELDS, ...(chosen ? templateVariablePaths('templateVariables', chosen.components) : [])]);
    }
  };

  const warning = confirm ? campaignComplaintWarning(confirm.preview.destinations.length) : null;

  return (
    <div className="page bulk-page" data-testid={`page-massa-${kind}`}>
      <PageHeader title={t(`routes.massa/${kind}`)} description={t(`bulk.descriptions.${kind}`)} />
      <div className="bulk-layout">
        <Card className="bulk-form">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void review();
            }}
          >
            <SelectField
              control={form.control}
              name="channelId"
              label={t('bulk.channel')}
              required
              emptyLabel={t('bulk.chooseChannel')}
              helperText={isTemplate ? t('bulk.wabaOnly') : undefined}
              options={channelOptions}
              testId="bulk-channel"
            />
            {isTemplate ? (
              <>
                <SelectField
                  control={form.control}
                  name="template"
                  label={t('bulk.template')}
                  required
                  emptyLabel={t('bulk.chooseTemplate')}
                  helperText={channel && approved.length === 0 && !templates.isFetching ? t('bulk.noTemplates') : undefined}
                  options={approved.map((x) => ({ value: templateKey(x.name, x.language), label: `${x.name} (${x.language})` }))}
                  testId="bulk-template"
                />
                {chosen ? (
                  <TemplateVariableFields
                    control={form.control}
                    name="templateVariables"
                    components={chosen.components}
                    testIdPrefix="bulk-template"
                    bodyFromLines={bodyFromLines}
                    helperText={t(bodyFromLines ? 'bulk.templateFixedHelp' : 'campaigns.templateVariableHelp')}
                  />
                ) : null}
                {chosen && bodyFromLines && chosen.bodyVariables > 0 ? (
                  <p className="bp6-text-muted" data-testid="bulk-template-body-from-lines">
                    {t('bulk.templateBodyFromLines', { count: chosen.bodyVariables })}
                  </p>
                ) : null}
              </>
            ) : null}
            <TextAreaField
              control={form.control}
              name="destinations"
              label={t('bulk.destinations')}
              required
              rows={8}
              placeholder={withVariables ? '5511987654321,Ana,#123\n5521998765432,Bruno,#124' : '5511987654321\n5521998765432'}
              helperText={withVariables ? t('bulk.destinationsVariablesHelp') : t('bulk.destinationsHelp')}
              testId="bulk-destinations"
            />
            {!isTemplate ? (
              <>
                <TextAreaField
                  control={form.control}
                  name="message"
                  label={t('bulk.message')}
                  rows={4}
                  helperText={kind === 'textovariavel' ? t('bulk.messageVariablesHelp') : t('bulk.messageHelp')}
                  testId="bulk-message"
                  textAreaRef={(element) => {
                    messageRef.current = element;
                  }}
                />
                <MessageVariablesHelp onInsert={insertVariable} />
                <div className="bulk-row">
                  <TextField
                    control={form.control}
                    name="mediaUrl"
                    label={t('bulk.mediaUrl')}
                    type="url"
                    placeholder="https://"
                    helperText={t('bulk.mediaUrlHelp')}
                    testId="bulk-media-url"
                  />
                  <SelectField
                    control={form.control}
                    name="mediaType"
                    label={t('bulk.mediaType')}
                    emptyLabel={t('bulk.mediaTypeAuto')}
                    options={BULK_MEDIA_TYPES.map((m) => ({ value: m, label: t(`bulk.mediaTypes.${m}`) }))}
                    testId="bulk-media-type"
                  />
                </div>
              </>
            ) : null}
            <div className="bulk-row">
              <TextField control={form.control} name="minDelay" label={t('bulk.minDelay')} required testId="bulk-min-delay" />
              <TextField control={form.control} name="maxDelay" label={t('bulk.maxDelay')} required testId="bulk-max-delay" />
            </div>
            <p className="bp6-text-muted">{t('bulk.delayHelp')}</p>
            <FormErrorSummary control={form.control} testId="bulk-form-summary" />
            <Button type="submit" intent="primary" icon="send-message" text={t('bulk.send')} loading={creating.isLoading} data-testid="bulk-submit" />
          </form>
        </Card>
        <BulkSendProgress kind={kind} selectedId={selectedId} onSelect={setSelectedId} lastInvalid={lastInvalid} language={i18n.language} timeZone={timeZone} />
      </div>
      <Alert
        isOpen={confirm !== null}
        intent="warning"
        icon="warning-sign"
        confirmButtonText={t('bulk.confirmStart')}
        cancelButtonText={t('common.cancel')}
        onConfirm={() => void start()}
        onCancel={() => setConfirm(null)}
      >
        {confirm && warning ? (
          <div data-testid="bulk-confirm">
            <p>{t('bulk.confirmText', { count: confirm.preview.destinations.length })}</p>
            {confirm.preview.invalid.length > 0 ? (
              <p data-testid="bulk-confirm-invalid">{t('bulk.confirmInvalid', { count: confirm.preview.invalid.length })}</p>
            ) : null}
            <Callout intent="warning" data-testid="bulk-spam-warning">
              {t('campaigns.complaintWarning', { percent: warning.percent, count: warning.recipients, complaints: warning.complaintsToBlock })}
            </Callout>
          </div>
        ) : null}
      </Alert>
    </div>
  );
}

/** The chosen send (the latest by default): progress, cancel, each destination's outcome and the refused lines. */
function BulkSendProgress({
  kind,
  selectedId,
  onSelect,
  lastInvalid,
  language,
  timeZone,
}: {
  kind: BulkScreenKind;
  selectedId: number | null;
  onSelect(id: number): void;
  lastInvalid: BulkInvalidLine[] | null;
  language: string;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const list = useListBulkSendsQuery(kind);
  const id = selectedId ?? list.data?.[0]?.id ?? null;
  const [pageNumber, setPageNumber] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const [status, setStatus] = useState<CampaignContactStatus | ''>('');
  const send = useGetBulkSendQuery(id ?? 0, { skip: id === null });
  const results = useBulkSendResultsQuery({ id: id ?? 0, pageNumber, pageSize, status: status || undefined }, { skip: id === null });
  const [cancel, canceling] = useCancelBulkSendMutation();
  // The send and its results are skipped queries (nothing to refetch) until one is chosen.
  useLiveRefresh(LIVE_EVENTS, useSettledRefetch(list, send, results), 1000);
  const s = send.data;
  if (id === null || !s) {
    return (
      <Card className="bulk-progress">
        <p className="bp6-text-muted">{t('bulk.noSends')}</p>
      </Card>
    );
  }
  const progress = campaignProgress(s.counts);
  const invalid = results.data?.invalidLines ?? lastInvalid ?? [];
  const columns: DataColumn[] = [
    { key: 'number', label: t('bulk.number'), kind: 'text' },
    { key: 'name', label: t('bulk.contact'), kind: 'text' },
    { key: 'variables', label: t('bulk.variables'), kind: 'text', render: (row) => ((row.variables as string[]) ?? []).join(', ') },
    {
      key: 'status',
      label: t('bulk.status'),
      kind: 'text',
      render: (row) => (
        <Tag minimal intent={RESULT_INTENT[row.status as CampaignContactStatus]} data-testid="bulk-result-status">
          {t(`campaigns.contactStatuses.${row.status as string}`)}
        </Tag>
      ),
    },
    { key: 'error', label: t('bulk.reason'), kind: 'text' },
    { key: 'sentAt', label: t('bulk.sentAt'), kind: 'text', render: (row) => (row.sentAt ? formatCell('datetime', row.sentAt, { language, timeZone }) : '') },
  ];
  return (
    <div className="bulk-progress" data-testid="bulk-progress">
      <Card>
        <div className="bulk-progress-head">
          <H5>
            {t('bulk.sendNumber', { id: s.id })}{' '}
            <Tag minimal intent={STATUS_INTENT[s.status]} data-testid="bulk-status">
              {t(`campaigns.statuses.${s.status}`)}
            </Tag>
          </H5>
          {(list.data?.length ?? 0) > 1 ? (
            <HTMLSelect value={id} onChange={(e) => onSelect(Number(e.currentTarget.value))} aria-label={t('bulk.history')} data-testid="bulk-history">
              {(list.data ?? []).map((x) => (
                <option key={x.id} value={x.id}>
                  {t('bulk.sendNumber', { id: x.id })} · {formatCell('datetime', x.createdAt, { language, timeZone })} · {t(`campaigns.statuses.${x.status}`)}
                </option>
              ))}
            </HTMLSelect>
          ) : null}
        </div>
        <p className="bp6-text-muted">
          {t('bulk.detailLine', { channel: s.channelName ?? '—', min: s.minDelay, max: s.maxDelay })}
          {s.templateName ? ` · ${t('bulk.template')}: ${s.templateName}` : ''}
        </p>
        <ProgressBar value={progress.ratio} stripes={s.status === 'processing'} animate={s.status === 'processing'} intent={STATUS_INTENT[s.status]} />
        <p data-testid="bulk-counts">
          {t('campaigns.progressText', { done: progress.done, total: s.counts.contacts, delivered: s.counts.delivered, failed: s.counts.failed })}
          {s.invalidCount > 0 ? ` · ${t('bulk.invalidCount', { count: s.invalidCount })}` : ''}
        </p>
        {s.status === 'processing' ? (
          <Button icon="stop" intent="danger" text={t('bulk.cancel')} loading={canceling.isLoading} onClick={() => void cancel(s.id)} data-testid="bulk-cancel" />
        ) : null}
      </Card>
      {invalid.length > 0 ? (
        <Callout intent="warning" title={t('bulk.invalidTitle', { count: invalid.length })} data-testid="bulk-invalid-lines">
          <ul className="bulk-invalid-list">
            {invalid.slice(0, 200).map((l) => (
              <li key={l.line}>
                {t('bulk.invalidLine', { line: l.line, text: l.text, reason: l.reason })}
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
      <CampaignOutcomeTable
        statusLabel={t('bulk.status')}
        status={status}
        onStatusChange={setStatus}
        filterTestId="bulk-results-filter"
        columns={columns}
        rows={(results.data?.results ?? []) as unknown as DataRow[]}
        count={results.data?.count ?? 0}
        pageNumber={pageNumber}
        pageSize={pageSize}
        hasMore={results.data?.hasMore ?? false}
        loading={results.isLoading}
        onPageChange={setPageNumber}
        onPageSizeChange={setPageSize}
        timeZone={timeZone}
        empty={{ icon: 'send-message', title: t('bulk.noResults') }}
        testId="bulk-results-table"
      />
    </div>
  );
}
