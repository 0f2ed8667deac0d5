import { Button, Callout, Menu, MenuItem, Tag, TextArea } from '@blueprintjs/core';
import { useEffect, useRef, useState, type ClipboardEvent, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { isSendableQuickMessage, resolveQuickMessageCommand } from '@shared/quick-message-command';
import { messagesApi, useLazyGetAttendanceQuickRepliesQuery, useSendMessageMutation, type QuickReply } from '../../api/messages.api';
import { describeError } from '../../api/error-mapper';
import { useAppDispatch } from '../../app/store-hooks';
import { fetchAuthenticatedBlob } from './authenticated-media';
import { createDraftStore } from './draft-store';
import { upsertMessage } from './message-display';
import type { LocalFailedSend } from './message-thread';

export const drafts = createDraftStore(
  typeof localStorage === 'undefined'
    ? { getItem: () => null, setItem: () => undefined, removeItem: () => undefined }
    : localStorage,
);

const newClientId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `c-${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * Text, files and quick replies for one ticket. Every send carries a client-generated clientId,
 * so retrying a send that failed on the way is idempotent on the server.
 */
export function useTicketSender(ticketId: number) {
  const dispatch = useAppDispatch();
  const [send] = useSendMessageMutation();
  const [failures, setFailures] = useState<LocalFailedSend[]>([]);
  const [warning, setWarning] = useState<string | null>(null);
  useEffect(() => {
    setFailures([]);
    setWarning(null);
  }, [ticketId]);

  const deliver = async (attempt: LocalFailedSend): Promise<boolean> => {
    const result = await send({ ticketId, body: attempt.body, clientId: attempt.clientId, files: attempt.files });
    if ('error' in result) {
      setFailures((list) => (list.some((f) => f.clientId === attempt.clientId) ? list : [...list, attempt]));
      return false;
    }
    setFailures((list) => list.filter((f) => f.clientId !== attempt.clientId));
    setWarning(result.data.warning?.message ?? null);
    dispatch(
      messagesApi.util.updateQueryData('getMessages', { ticketId, before: null }, (draft) => {
        for (const m of result.data.messages) upsertMessage(draft.messages, m);
      }),
    );
    return true;
  };
  return {
    failures,
    warning,
    send: (body: string, files: File[]) => deliver({ clientId: newClientId(), body, files }),
    retry: (failure: LocalFailedSend) => deliver(failure),
  };
}

export function Composer({
  ticketId,
  disabled,
  files,
  setFiles,
  sender,
}: {
  ticketId: number;
  disabled: boolean;
  files: File[];
  setFiles: Dispatch<SetStateAction<File[]>>;
  sender: ReturnType<typeof useTicketSender>;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => drafts.read(ticketId));
  const [error, setError] = useState<string | null>(null);
  const [choices, setChoices] = useState<QuickReply[] | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const [loadQuickReplies] = useLazyGetAttendanceQuickRepliesQuery();

  useEffect(() => {
    setText(drafts.read(ticketId));
    setError(null);
    setChoices(null);
  }, [ticketId]);

  const change = (value: string) => {
    setText(value);
    drafts.write(ticketId, value);
    setError(null);
    setChoices(null);
  };

  const sendQuickReply = async (quick: QuickReply) => {
    setChoices(null);
    if (!isSendableQuickMessage(quick)) {
      setError(t('attendance.quick.empty'));
      return;
    }
    const quickFiles: File[] = [];
    if (quick.mediaName) {
      const blob = await fetchAuthenticatedBlob(`/fastreply/${quick.id}/file`);
      quickFiles.push(new File([blob], quick.mediaName, { type: blob.type }));
    }
    if (await sender.send(quick.message ?? '', [...files, ...quickFiles])) {
      change('');
      setFiles([]);
    }
  };

  const submit = async () => {
    if (busy || disabled) return;
    setBusy(true);
    try {
      if (text.trim().startsWith('/') && !/\s/.test(text.trim())) {
        const result = await loadQuickReplies(undefined, false);
        if (result.error) {
          setError(describeError(result.error, t));
          return;
        }
        const command = resolveQuickMessageCommand(text, result.data ?? []);
        if (command.kind === 'noMatch') setError(t('attendance.quick.noMatch', { key: command.query }));
        else if (command.kind === 'choose') setChoices(command.options);
        else if (command.kind === 'match') await sendQuickReply(command.quickMessage);
        return;
      }
      if (!text.trim() && files.length === 0) {
        setError(t('attendance.emptyMessage'));
        return;
      }
      const body = text;
      const sentFiles = files;
      // The composer clears at once; a failed send stays in the thread with its retry button.
      change('');
      setFiles([]);
      await sender.send(body, sentFiles);
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = Array.from(e.clipboardData.files ?? []);
    if (pasted.length) {
      e.preventDefault();
      setFiles((current) => [...current, ...pasted]);
    }
  };

  return (
    <div className="composer" data-testid="composer">
      {sender.warning && (
        <Callout intent="warning" compact data-testid="send-warning">
          {sender.warning}
        </Callout>
      )}
      {error && (
        <Callout intent="danger" compact data-testid="composer-error">
          {error}
        </Callout>
      )}
      {choices && (
        <Menu className="quick-reply-chooser" data-testid="quick-reply-chooser">
          {choices.map((q) => (
            <MenuItem key={q.id} text={`/${q.key}`} label={(q.message ?? '').slice(0, 40)} onClick={() => void sendQuickReply(q)} />
          ))}
        </Menu>
      )}
      {files.length > 0 && (
        <div className="composer-files" data-testid="composer-files">
          {files.map((f, i) => (
            <Tag key={`${f.name}-${i}`} onRemove={() => setFiles((current) => current.filter((_, j) => j !== i))} icon="paperclip">
              {f.name}
            </Tag>
          ))}
        </div>
      )}
      <div className="composer-row">
        <Button
          icon="paperclip"
          variant="minimal"
          aria-label={t('attendance.attach')}
          disabled={disabled}
          onClick={() => fileInput.current?.click()}
          data-testid="composer-attach"
        />
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="composer-file-input"
          onChange={(e) => {
            const picked = Array.from(e.target.files ?? []);
            setFiles((current) => [...current, ...picked]);
            e.target.value = '';
          }}
        />
        <TextArea
          className="composer-input"
          value={text}
          disabled={disabled}
          placeholder={disabled ? t('attendance.composerDisabled') : t('attendance.composerPlaceholder')}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          data-testid="composer-input"
          aria-label={t('attendance.composerPlaceholder')}
          rows={2}
          fill
        />
        <Button icon="send-message" intent="primary" loading={busy} disabled={disabled} onClick={() => void submit()} data-testid="composer-send">
          {t('attendance.send')}
        </Button>
      </div>
    </div>
  );
}
