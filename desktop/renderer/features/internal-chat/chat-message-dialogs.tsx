import { Alert, Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { ChatMessageDto, EditChatMessageInput } from '@shared/schemas/internal-chat';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteChatMessageMutation, useEditChatMessageMutation } from '../../api/internal-chat.api';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { countedLength, editSchemaWithin, tooLongRefusalOf } from './chat-limits';

/** Editing one's own message: the shared EditChatMessageSchema with the tenant's limit. */
export function EditChatMessageDialog({
  message,
  max,
  onClose,
  onSaved,
}: {
  message: ChatMessageDto;
  max: number;
  onClose(): void;
  onSaved(message: ChatMessageDto): void;
}) {
  const { t } = useTranslation();
  const schema = useMemo(() => editSchemaWithin(max), [max]);
  const { control, handleSubmit, setError, watch } = useZodForm<{ body: string }, EditChatMessageInput>(schema, {
    body: message.body,
  });
  const [edit, editing] = useEditChatMessageMutation();
  const length = countedLength(watch('body') ?? '');

  const save = handleSubmit(async ({ body }) => {
    const result = await edit({ messageId: message.id, body });
    if ('error' in result) {
      showServerFailure(setError, result.error, t, ['body']);
      const tooLong = tooLongRefusalOf(result.error);
      if (tooLong) setError('body', { type: 'server', message: tooLong });
      return;
    }
    onSaved(result.data);
    onClose();
  });

  return (
    <Dialog isOpen title={t('internalChat.editTitle')} onClose={onClose}>
      <form
        data-testid="chat-edit-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <DialogBody>
          <TextAreaField
            control={control}
            name="body"
            label={t('internalChat.editLabel')}
            rows={4}
            testId="chat-edit-body"
            helperText={`${length}/${max}`}
          />
          <FormErrorSummary control={control} testId="chat-edit-summary" />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <Button
                type="submit"
                intent="primary"
                text={t('crud.save')}
                loading={editing.isLoading}
                data-testid="chat-edit-save"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** Deleting one's own message asks first; it stays in the history as "Mensagem apagada". */
export function DeleteChatMessageAlert({
  message,
  onClose,
  onDeleted,
}: {
  message: ChatMessageDto | null;
  onClose(): void;
  onDeleted(message: ChatMessageDto): void;
}) {
  const { t } = useTranslation();
  const [remove, removing] = useDeleteChatMessageMutation();
  const confirm = async () => {
    if (!message) return;
    const result = await remove(message.id);
    if ('error' in result) return;
    onDeleted(
      result.data ?? {
        ...message,
        body: '',
        mediaUrl: null,
        mediaName: null,
        mimeType: null,
        deletedAt: new Date().toISOString(),
      },
    );
    showToast(t('internalChat.deletedToast'), 'success');
    onClose();
  };
  return (
    <Alert
      isOpen={message !== null}
      intent="danger"
      icon="trash"
      confirmButtonText={t('internalChat.delete')}
      cancelButtonText={t('common.cancel')}
      loading={removing.isLoading}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    >
      <p data-testid="chat-delete-text">{t('internalChat.deleteConfirm')}</p>
    </Alert>
  );
}
