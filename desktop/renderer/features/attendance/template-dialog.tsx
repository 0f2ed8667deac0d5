import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SendTemplateSchema,
  sizeTemplateVariables,
  templateVariableIssues,
  type StoredTemplateDto,
  type TemplateVariableValues,
} from '@shared/schemas/templates';
import { describeError } from '../../api/error-mapper';
import { messagesApi, useGetMessagingWindowQuery, useGetTicketTemplatesQuery, useSendTemplateMutation } from '../../api/messages.api';
import { useZodForm } from '../../app/forms/use-zod-form';
import { TemplateVariableFields } from '../templates/template-variable-fields';
import { newClientId } from './composer-dialogs';

interface TemplateFormValues {
  name: string;
  language: string;
  variables: TemplateVariableValues;
}

const keyOf = (t: Pick<StoredTemplateDto, 'name' | 'language'>) => `${t.name}|${t.language}`;

/** "3h 12min" / "45min" until `closesAt`. */
export function windowTimeLeft(closesAt: string, now: number): { hours: number; minutes: number } {
  const left = Math.max(0, new Date(closesAt).getTime() - now);
  return { hours: Math.floor(left / 3600_000), minutes: Math.floor((left % 3600_000) / 60_000) };
}

/**
 * The WABA 24-hour window of the ticket's conversation, above the composer: the time left, or
 * that it is closed and a template must be sent. Nothing for other channel types.
 */
export function MessagingWindowBar({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const { data, refetch } = useGetMessagingWindowQuery(ticketId, { pollingInterval: 60_000 });
  // A new customer message in the thread (socket) reopens the window: asked again at once.
  const { lastInbound } = messagesApi.endpoints.getMessages.useQueryState(
    { ticketId, before: null },
    { selectFromResult: ({ data: page }) => ({ lastInbound: (page?.messages ?? []).reduce((max, m) => (!m.fromMe && m.id > max ? m.id : max), 0) }) },
  );
  const seenInbound = useRef(lastInbound);
  useEffect(() => {
    if (lastInbound === seenInbound.current) return;
    seenInbound.current = lastInbound;
    void refetch();
  }, [lastInbound, refetch]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!data || data.channelType !== 'waba') return null;
  const open = data.windowOpen && data.closesAt !== null && new Date(data.closesAt).getTime() > now;
  if (!open) {
    return (
      <Callout intent="warning" compact data-testid="messaging-window">
        {t('chatTools.window.closed')}
      </Callout>
    );
  }
  const left = windowTimeLeft(data.closesAt as string, now);
  const time =
    left.hours > 0
      ? t('chatTools.window.hoursMinutes', { hours: left.hours, minutes: left.minutes })
      : t('chatTools.window.minutes', { minutes: left.minutes });
  return (
    <Tag minimal icon="time" data-testid="messaging-window">
      {t('chatTools.window.open', { time })}
    </Tag>
  );
}

/**
 * Sends one of the channel's approved templates: pick it, fill its header, body and button
 * variables (checked with the shared schema and the template's placeholders, as the server
 * does), see the text the customer will read, send.
 */
export function TemplateDialog({ ticketId, onClose }: { ticketId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const templates = useGetTicketTemplatesQuery(ticketId);
  const [send, { isLoading }] = useSendTemplateMutation();
  const [serverError, setServerError] = useState<string | null>(null);
  const [selected, setSelected] = useState<StoredTemplateDto | null>(null);
  const schema = useMemo(
    () =>
      SendTemplateSchema.superRefine((value, ctx) => {
        if (!selected) return;
        for (const issue of templateVariableIssues(selected.components, value.variables)) {
          ctx.addIssue({ code: 'custom', path: issue.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: issue.message });
        }
      }),
    [selected],
  );
  const form = useZodForm<TemplateFormValues, unknown>(schema, {
    name: '',
    language: '',
    variables: { header: [], body: [], buttons: [] },
  });

  const pick = (key: string) => {
    const template = templates.data?.find((x) => keyOf(x) === key) ?? null;
    setSelected(template);
    setServerError(null);
    form.reset({
      name: template?.name ?? '',
      language: template?.language ?? '',
      variables: sizeTemplateVariables(template?.components ?? []),
    });
  };

  const submit = form.handleSubmit(async (parsed) => {
    const input = parsed as ReturnType<typeof SendTemplateSchema.parse>;
    const result = await send({ ticketId, ...input, clientId: newClientId() });
    if ('error' in result) {
      const data = (result.error as { data?: { error?: string; fields?: { path?: string; message?: string }[] } }).data;
      const field = data?.error === 'ERR_VALIDATION' ? data.fields?.[0] : undefined;
      setServerError(field ? `${field.path}: ${field.message}` : describeError(result.error, t));
    } else onClose();
  });

  return (
    <Dialog isOpen onClose={onClose} title={t('chatTools.template.title')}>
      <form onSubmit={(e) => void submit(e)} data-testid="template-form">
        <DialogBody>
          {templates.isLoading && <Spinner size={20} />}
          {templates.isError && (
            <Callout intent="danger" compact data-testid="template-load-error">
              {t('chatTools.template.loadFailed')} {describeError(templates.error, t)}
            </Callout>
          )}
          {templates.data && templates.data.length === 0 && (
            <Callout intent="warning" compact data-testid="template-none">
              {t('chatTools.template.none')}
            </Callout>
          )}
          {templates.data && templates.data.length > 0 && (
            <FormGroup label={t('chatTools.template.choose')} labelFor="template-select" labelInfo="*">
              <HTMLSelect
                id="template-select"
                fill
                value={selected ? keyOf(selected) : ''}
                onChange={(e) => pick(e.currentTarget.value)}
                data-testid="template-select"
              >
                <option value="">{t('chatTools.template.pick')}</option>
                {templates.data.map((x) => (
                  <option key={keyOf(x)} value={keyOf(x)}>
                    {x.name} ({x.language})
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
          {selected && <TemplateVariableFields control={form.control} name="variables" components={selected.components} testIdPrefix="template" />}
          {serverError && (
            <Callout intent="danger" compact data-testid="template-error">
              {serverError}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <Button type="submit" intent="primary" loading={isLoading} disabled={!selected} data-testid="template-submit">
              {t('chatTools.template.submit')}
            </Button>
          }
        />
      </form>
    </Dialog>
  );
}
