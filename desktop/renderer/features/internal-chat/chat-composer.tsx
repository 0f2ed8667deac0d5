import { Button, FormGroup, InputGroup, Popover, Tag, TextArea } from '@blueprintjs/core';
import {
  CHAT_SOCKET_EVENTS,
  INTERNAL_CHAT_ERRORS,
  type ChatMessageDto,
  type SendChatMessageInput,
} from '@shared/schemas/internal-chat';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSendChatMessageMutation } from '../../api/internal-chat.api';
import { fieldMessage } from '../../app/forms/field-text';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { emitRealtime } from '../../app/realtime/realtime-connection';
import { EmojiPicker, newClientId } from '../attendance/composer-dialogs';
import { insertAtSelection } from '../attendance/composer-rules';
import '../attendance/composer-tools.css';
import { conversationKey, type ConversationRef } from './chat-cache';
import { countedLength, sendSchemaWithin, tooLongMessage, tooLongRefusalOf } from './chat-limits';
import { createTypingEmitter } from './typing-state';

/**
 * The message box of a conversation: text within the tenant's limit (counter; an over-long text
 * is refused with the server's sentence), emoji, one file, a reply, an optional ticket link (its
 * number). Enter sends, Shift+Enter breaks the line. While the user types, `chat:typing` goes out
 * at most once every 2 s. The unsent text of each conversation is kept while the app runs.
 */

interface ComposerValues {
  kind: ConversationRef['kind'];
  id: number;
  body: string;
  replyToId: number | '';
  ticketId: string;
  clientId: string;
}

const drafts = new Map<string, string>();

export function ChatComposer({
  conversation,
  max,
  replyTo,
  onCancelReply,
  onSent,
  disabled,
}: {
  conversation: ConversationRef;
  max: number;
  replyTo: ChatMessageDto | null;
  onCancelReply(): void;
  onSent(message: ChatMessageDto): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const key = conversationKey(conversation);
  const schema = useMemo(() => sendSchemaWithin(max), [max]);
  const defaults = (): ComposerValues => ({
    kind: conversation.kind,
    id: conversation.id,
    body: drafts.get(key) ?? '',
    replyToId: '',
    ticketId: '',
    clientId: newClientId(),
  });
  const form = useZodForm<ComposerValues, SendChatMessageInput>(schema, defaults());
  const { control, handleSubmit, setValue, watch, reset, setError, clearErrors, formState } = form;
  const [send, sending] = useSendChatMessageMutation();
  const [file, setFile] = useState<File | null>(null);
  const [ticketOpen, setTicketOpen] = useState(false);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const textRef = useRef<HTMLTextAreaElement | null>(null);
  const fileRef = useRef<HTMLInputElement | null>(null);
  const typing = useMemo(
    () =>
      createTypingEmitter(() => void emitRealtime(CHAT_SOCKET_EVENTS.typing, { kind: conversation.kind, id: conversation.id })),
    [conversation.kind, conversation.id],
  );

  const body = watch('body');
  const length = countedLength(body ?? '');
  const over = length > max;

  useEffect(() => {
    setValue('replyToId', replyTo ? replyTo.id : '');
    if (replyTo) textRef.current?.focus();
  }, [replyTo, setValue]);

  useEffect(() => {
    textRef.current?.focus();
  }, [key]);

  const submit = async (parsed: SendChatMessageInput) => {
    const text = parsed.body.trim();
    if (!text && !file) {
      setError('body', { type: 'empty', message: INTERNAL_CHAT_ERRORS.empty.message });
      return;
    }
    const result = await send({
      kind: parsed.kind,
      id: parsed.id,
      body: text,
      clientId: parsed.clientId ?? newClientId(),
      replyToId: parsed.replyToId,
      ticketId: parsed.ticketId,
      file,
    });
    if ('error' in result) {
      showServerFailure(setError, result.error, t, ['body', 'ticketId']);
      const tooLong = tooLongRefusalOf(result.error);
      if (tooLong) setError('body', { type: 'server', message: tooLong });
      return;
    }
    drafts.delete(key);
    reset({ ...defaults(), body: '' });
    setFile(null);
    setTicketOpen(false);
    typing.reset();
    onCancelReply();
    onSent(result.data);
    textRef.current?.focus();
  };
  const sendNow = () => void handleSubmit(submit)();

  const insertEmoji = (emoji: string) => {
    const el = textRef.current;
    const next = insertAtSelection(body ?? '', el?.selectionStart ?? null, el?.selectionEnd ?? null, emoji);
    setValue('body', next.text);
    drafts.set(key, next.text);
    setEmojiOpen(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  };

  const bodyError = formState.errors.body?.message ?? formState.errors.root?.server?.message;
  const ticketError = fieldMessage(t('internalChat.ticketNumber'), formState.errors.ticketId?.message);

  return (
    <form
      className="ichat-composer"
      data-testid="chat-composer"
      onSubmit={(event) => {
        event.preventDefault();
        sendNow();
      }}
    >
      {replyTo ? (
        <div className="ichat-composer-reply" data-testid="chat-composer-reply">
          <span>
            <strong>{t('internalChat.replyingTo', { name: replyTo.fromUserName })}</strong>{' '}
            {replyTo.body || replyTo.mediaName || t('internalChat.file')}
          </span>
          <Button
            icon="cross"
            variant="minimal"
            size="small"
            aria-label={t('common.cancel')}
            onClick={onCancelReply}
            data-testid="chat-composer-reply-cancel"
          />
        </div>
      ) : null}
      {file ? (
        <div className="ichat-composer-file">
          <Tag icon="paperclip" onRemove={() => setFile(null)} data-testid="chat-composer-file">
            {file.name}
          </Tag>
        </div>
      ) : null}
      {ticketOpen ? (
        <FormGroup
          className="ichat-composer-ticket"
          label={t('internalChat.ticketNumber')}
          labelFor="chat-ticket-id"
          inline
          intent={ticketError ? 'danger' : 'none'}
          helperText={ticketError ? <span data-testid="chat-composer-ticket-error">{ticketError}</span> : undefined}
        >
          <Controller
            control={control}
            name="ticketId"
            render={({ field }) => (
              <InputGroup
                id="chat-ticket-id"
                size="small"
                inputMode="numeric"
                value={field.value}
                onChange={(event) => field.onChange(event.currentTarget.value.replace(/\D/g, ''))}
                rightElement={
                  <Button
                    icon="cross"
                    variant="minimal"
                    size="small"
                    aria-label={t('common.cancel')}
                    onClick={() => {
                      field.onChange('');
                      setTicketOpen(false);
                    }}
                  />
                }
                data-testid="chat-composer-ticket"
              />
            )}
          />
        </FormGroup>
      ) : null}
      <div className="ichat-composer-row">
        <div className="ichat-composer-tools">
          <Popover
            isOpen={emojiOpen}
            onInteraction={setEmojiOpen}
            content={<EmojiPicker onPick={insertEmoji} />}
            placement="top-start"
          >
            <Button
              icon="emoji"
              variant="minimal"
              aria-label={t('chatTools.emoji')}
              title={t('chatTools.emoji')}
              disabled={disabled}
              data-testid="chat-composer-emoji"
            />
          </Popover>
          <Button
            icon="paperclip"
            variant="minimal"
            aria-label={t('internalChat.attach')}
            title={t('internalChat.attach')}
            disabled={disabled}
            onClick={() => fileRef.current?.click()}
            data-testid="chat-composer-attach"
          />
          <input
            ref={fileRef}
            type="file"
            hidden
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0] ?? null);
              event.currentTarget.value = '';
              clearErrors('body');
            }}
            data-testid="chat-composer-file-input"
          />
          <Button
            icon="link"
            variant="minimal"
            active={ticketOpen}
            aria-label={t('internalChat.linkTicket')}
            title={t('internalChat.linkTicket')}
            disabled={disabled}
            onClick={() => setTicketOpen((open) => !open)}
            data-testid="chat-composer-link-ticket"
          />
        </div>
        <Controller
          control={control}
          name="body"
          render={({ field }) => (
            <TextArea
              className="ichat-composer-text"
              inputRef={(element) => {
                field.ref(element);
                textRef.current = element;
              }}
              value={field.value}
              rows={2}
              fill
              disabled={disabled}
              intent={over || bodyError ? 'danger' : 'none'}
              placeholder={t('internalChat.placeholder')}
              aria-label={t('internalChat.placeholder')}
              onChange={(event) => {
                const value = event.currentTarget.value;
                field.onChange(value);
                drafts.set(key, value);
                if (value.trim()) typing.keystroke();
                if (formState.errors.body) clearErrors('body');
              }}
              onKeyDown={(event) => {
                if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
                event.preventDefault();
                if (!sending.isLoading) sendNow();
              }}
              data-testid="chat-composer-input"
            />
          )}
        />
        <Button
          type="submit"
          icon="send-message"
          intent="primary"
          loading={sending.isLoading}
          disabled={disabled || over}
          aria-label={t('internalChat.send')}
          title={t('internalChat.send')}
          data-testid="chat-composer-send"
        />
      </div>
      <div className="ichat-composer-status">
        <span className="ichat-composer-error" role={bodyError ? 'alert' : undefined} data-testid="chat-composer-error">
          {over ? tooLongMessage(max) : bodyError}
        </span>
        <span className={`ichat-composer-counter${over ? ' is-over' : ''}`} data-testid="chat-composer-counter">
          {length}/{max}
        </span>
      </div>
    </form>
  );
}
