import { Button, FileInput, FormGroup, InputGroup, Switch, Tag, TextArea } from '@blueprintjs/core';
import { messageVariableToken, type MessageVariable } from '@shared/message-variables';
import { CATALOG_TEXT_MAX } from '@shared/schemas/catalog-fields';
import { QUICK_MESSAGE_KEY_MAX, QUICK_MESSAGE_MEDIA_MAX_BYTES } from '@shared/schemas/quick-messages';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateQuickMessageMutation, useUpdateQuickMessageMutation, type QuickMessage } from '../../api/quick-messages.api';
import { showToast } from '../../app/feedback/toaster';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';
import { MessageVariablesHelp } from './message-variables-help';
import {
  formatFileSize,
  insertAtCursor,
  validateQuickMessage,
  type QuickMessageFailure,
  type QuickMessageField,
} from './quick-message-form.logic';

interface FormState {
  key: string;
  message: string;
  sendAsVoice: boolean;
  active: boolean;
  file: File | null;
  removeMedia: boolean;
}

/**
 * Create or edit a quick message: key (typed after "/" in the chat), text with message
 * variables, an optional file (sent as multipart, field `medias`), send the audio as a recorded
 * voice note, active.
 */
export function QuickMessageFormDialog({ quickMessage, onClose }: { quickMessage: QuickMessage | null; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<FormState>(() => ({
    key: quickMessage?.key ?? '',
    message: quickMessage?.message ?? '',
    sendAsVoice: quickMessage?.sendAsVoice ?? false,
    active: quickMessage?.active ?? true,
    file: null,
    removeMedia: false,
  }));
  const [errors, setErrors] = useState<Partial<Record<QuickMessageField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const messageRef = useRef<HTMLTextAreaElement | null>(null);
  const [createQuickMessage, creating] = useCreateQuickMessageMutation();
  const [updateQuickMessage, updating] = useUpdateQuickMessageMutation();

  const storedFile = quickMessage?.mediaName && !form.removeMedia ? quickMessage : null;

  const failureText = (code: QuickMessageFailure): string => {
    switch (code) {
      case 'required':
        return t('validation.required');
      case 'keyTooLong':
        return t('crud.validation.tooLong', { max: QUICK_MESSAGE_KEY_MAX });
      case 'keyPattern':
        return t('quickMessages.validation.keyPattern');
      case 'messageTooLong':
        return t('crud.validation.tooLong', { max: CATALOG_TEXT_MAX });
      case 'messageOrFile':
        return t('quickMessages.validation.messageOrFile');
      case 'fileTooLarge':
        return t('quickMessages.validation.fileTooLarge', { size: formatFileSize(QUICK_MESSAGE_MEDIA_MAX_BYTES, i18n.language) });
      case 'voiceNeedsAudio':
        return t('quickMessages.validation.voiceNeedsAudio');
    }
  };

  const insertVariable = (variable: MessageVariable) => {
    const area = messageRef.current;
    const token = messageVariableToken(variable);
    const start = area?.selectionStart ?? form.message.length;
    const end = area?.selectionEnd ?? form.message.length;
    const next = insertAtCursor(form.message, start, end, token);
    setForm((current) => ({ ...current, message: next.text }));
    // After React has written the new value: keep typing where the variable ended.
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(next.cursor, next.cursor);
    });
  };

  const submit = async () => {
    const local = validateQuickMessage({
      key: form.key,
      message: form.message,
      sendAsVoice: form.sendAsVoice,
      file: form.file ? { size: form.file.size, type: form.file.type } : null,
      keptMediaType: storedFile?.mediaType ?? null,
    });
    const texts = Object.fromEntries(Object.entries(local).map(([field, code]) => [field, failureText(code)]));
    setErrors(texts);
    setFailure(null);
    if (Object.keys(texts).length > 0) return;
    const body = {
      key: form.key.trim(),
      message: form.message.trim(),
      sendAsVoice: form.sendAsVoice,
      active: form.active,
      file: form.file,
      removeMedia: quickMessage ? form.removeMedia && !form.file : undefined,
    };
    try {
      if (quickMessage) await updateQuickMessage({ id: quickMessage.id, body }).unwrap();
      else await createQuickMessage(body).unwrap();
      showToast(t('quickMessages.saved'), 'success');
      onClose();
    } catch (error) {
      const refused = formFailureOf(error, t);
      setFailure(refused.message);
      setErrors(refused.fields);
    }
  };

  const fileHelp = form.file
    ? `${form.file.name} · ${formatFileSize(form.file.size, i18n.language)}`
    : t('quickMessages.fileHelp', { size: formatFileSize(QUICK_MESSAGE_MEDIA_MAX_BYTES, i18n.language) });

  return (
    <FormDialog
      isOpen
      wide
      title={quickMessage ? t('quickMessages.editTitle') : t('quickMessages.createTitle')}
      icon="flash"
      saving={creating.isLoading || updating.isLoading}
      error={failure}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="quick-message-form"
    >
      <FormGroup
        label={t('quickMessages.key')}
        labelFor="quick-message-key"
        labelInfo="*"
        intent={errors.key ? 'danger' : 'none'}
        helperText={errors.key ?? t('quickMessages.keyHelp')}
      >
        <InputGroup
          id="quick-message-key"
          autoFocus
          leftElement={<span className="quick-message-slash">/</span>}
          value={form.key}
          maxLength={QUICK_MESSAGE_KEY_MAX + 10}
          intent={errors.key ? 'danger' : 'none'}
          onChange={(event) => setForm({ ...form, key: event.currentTarget.value })}
        />
      </FormGroup>
      <FormGroup
        label={t('quickMessages.message')}
        labelFor="quick-message-text"
        intent={errors.message ? 'danger' : 'none'}
        helperText={errors.message ?? t('quickMessages.messageHelp')}
      >
        <TextArea
          id="quick-message-text"
          inputRef={messageRef}
          fill
          rows={5}
          value={form.message}
          intent={errors.message ? 'danger' : 'none'}
          onChange={(event) => setForm({ ...form, message: event.currentTarget.value })}
        />
      </FormGroup>
      <MessageVariablesHelp onInsert={insertVariable} />
      <FormGroup
        label={t('quickMessages.file')}
        labelFor="quick-message-file"
        intent={errors.file ? 'danger' : 'none'}
        helperText={errors.file ?? fileHelp}
      >
        {storedFile && !form.file ? (
          <div className="quick-message-stored-file" data-testid="stored-file">
            <Tag minimal icon="paperclip" size="large">
              {storedFile.mediaName}
            </Tag>
            <Button
              variant="minimal"
              intent="danger"
              icon="cross"
              text={t('quickMessages.removeFile')}
              onClick={() => setForm({ ...form, removeMedia: true })}
            />
          </div>
        ) : null}
        <FileInput
          fill
          inputProps={{ id: 'quick-message-file', 'aria-label': t('quickMessages.file') }}
          text={form.file ? form.file.name : storedFile ? t('quickMessages.replaceFile') : t('quickMessages.chooseFile')}
          buttonText={t('quickMessages.browse')}
          hasSelection={form.file !== null}
          onInputChange={(event) => {
            const file = (event.currentTarget as HTMLInputElement).files?.[0] ?? null;
            setForm({ ...form, file });
          }}
        />
        {form.file ? (
          <Button
            className="quick-message-clear-file"
            variant="minimal"
            size="small"
            icon="cross"
            text={t('quickMessages.clearFile')}
            onClick={() => setForm({ ...form, file: null })}
          />
        ) : null}
      </FormGroup>
      <FormGroup
        intent={errors.sendAsVoice ? 'danger' : 'none'}
        helperText={errors.sendAsVoice ?? t('quickMessages.sendAsVoiceHelp')}
      >
        <Switch
          label={t('quickMessages.sendAsVoice')}
          checked={form.sendAsVoice}
          onChange={(event) => setForm({ ...form, sendAsVoice: event.currentTarget.checked })}
          data-testid="quick-message-voice"
        />
      </FormGroup>
      <Switch
        label={t('crud.active')}
        checked={form.active}
        onChange={(event) => setForm({ ...form, active: event.currentTarget.checked })}
      />
    </FormDialog>
  );
}
