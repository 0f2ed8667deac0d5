import { Button, Callout, H6, Switch } from '@blueprintjs/core';
import type { ChannelDto, GenerativeChatInput } from '@shared/schemas/channels';
import { useController, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../app/forms/form-fields';
import type { GenerativeChatValues } from './channel-form.logic';

/** The section's form (useZodForm's answer; its formState is not read here). */
export type GenerativeChatForm = Omit<UseFormReturn<GenerativeChatValues, unknown, GenerativeChatInput>, 'formState'>;

/**
 * "Chat generativo (IA)" of the channel edit dialog (issue #14): the OpenAI-compatible endpoint
 * the chatbot's generative chat step calls. Validated by the shared GenerativeChatSchema (the
 * dialog's save runs it); the key is write-only: the field starts empty, empty keeps the stored
 * key, "Remover chave" removes it on save.
 */
export function GenerativeChatSection({ form, channel }: { form: GenerativeChatForm; channel: ChannelDto }) {
  const { t } = useTranslation();
  const enabled = useController({ control: form.control, name: 'enabled' });
  const clearApiKey = useWatch({ control: form.control, name: 'clearApiKey' });
  const hasApiKey = channel.generativeChat?.hasApiKey === true;
  const on = enabled.field.value === true;
  const setClear = (value: boolean) => {
    form.setValue('clearApiKey', value, { shouldDirty: true });
    if (value) form.setValue('apiKey', '', { shouldDirty: true });
    void form.trigger('apiKey');
  };

  return (
    <section className="channel-form-section" data-testid="channel-generative-chat">
      <H6>{t('channels.generativeChat.title')}</H6>
      <p className="bp6-text-muted">{t('channels.generativeChat.help')}</p>
      <Switch
        label={t('channels.generativeChat.enabled')}
        checked={on}
        inputRef={enabled.field.ref}
        onChange={(event) => {
          enabled.field.onChange(event.currentTarget.checked);
          // Turning it off lifts the "required" messages at once.
          if (form.getFieldState('baseUrl').error || form.getFieldState('model').error) void form.trigger(['baseUrl', 'model']);
        }}
        data-testid="channel-generative-enabled"
      />
      <div className="channel-form-grid">
        <TextField
          control={form.control}
          name="baseUrl"
          type="url"
          label={t('channels.generativeChat.baseUrl')}
          required={on}
          placeholder="https://api.openai.com/v1"
          helperText={t('channels.generativeChat.baseUrlHelp')}
          testId="channel-generative-base-url"
        />
        <TextField
          control={form.control}
          name="model"
          label={t('channels.generativeChat.model')}
          required={on}
          placeholder="gpt-4o-mini"
          helperText={t('channels.generativeChat.modelHelp')}
          testId="channel-generative-model"
        />
      </div>
      <TextField
        control={form.control}
        name="apiKey"
        type="password"
        label={t('channels.generativeChat.apiKey')}
        disabled={clearApiKey}
        placeholder={hasApiKey && !clearApiKey ? t('channels.secretStored') : undefined}
        helperText={
          clearApiKey
            ? t('channels.generativeChat.apiKeyClearing')
            : hasApiKey
              ? t('channels.generativeChat.apiKeyStored')
              : t('channels.generativeChat.apiKeyHelp')
        }
        testId="channel-generative-api-key"
      />
      {hasApiKey ? (
        clearApiKey ? (
          <Callout intent="warning" icon="key" compact className="channel-form-callout">
            {t('channels.generativeChat.apiKeyClearing')}{' '}
            <Button
              variant="minimal"
              size="small"
              icon="undo"
              text={t('channels.generativeChat.undoClear')}
              onClick={() => setClear(false)}
              data-testid="channel-generative-undo-clear"
            />
          </Callout>
        ) : (
          <Button
            variant="outlined"
            size="small"
            intent="danger"
            icon="trash"
            text={t('channels.generativeChat.clearKey')}
            onClick={() => setClear(true)}
            data-testid="channel-generative-clear-key"
          />
        )
      ) : null}
    </section>
  );
}
