import { Button, Callout, Menu, MenuItem, Popover, Tag, TextArea, Tooltip } from '@blueprintjs/core';
import { useEffect, useRef, useState, type ClipboardEvent, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { isSendableQuickMessage } from '@shared/quick-message-command';
import type { ContactDto } from '../../api/contacts.api';
import {
  messagesApi,
  useGetMessagingWindowQuery,
  useLazyGetAttendanceQuickRepliesQuery,
  useSendGhostMessageMutation,
  useSendMessageMutation,
  type QuickReply,
} from '../../api/messages.api';
import { describeError } from '../../api/error-mapper';
import { isNoAnswer } from '../../api/cache-fallback-rule';
import { ticketsApi } from '../../api/tickets.api';
import type { RootState } from '../../app/store';
import { useAppDispatch } from '../../app/store-hooks';
import { useAudioRecorder } from './audio-recorder';
import { fetchAuthenticatedBlob } from './authenticated-media';
import type { ChatTools } from './chat-tools';
import { ButtonsDialog, ContactCardDialog, EmojiPicker, ForwardDialog, MentionDialog, newClientId } from './composer-dialogs';
import { ScheduleFormDialog } from '../schedules/schedule-form-dialog';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { buildVCard, composerIntent, formatDuration, insertAtSelection, quickReplyOutcome, vcardFileName } from './composer-rules';
import { createDraftStore } from './draft-store';
import { upsertMessage } from './message-display';
import type { LocalFailedSend } from './message-thread';
import { MessagingWindowBar, TemplateDialog } from './template-dialog';
import './composer-tools.css';

export const drafts = createDraftStore(
  typeof localStorage === 'undefined'
    ? { getItem: () => null, setItem: () => undefined, removeItem: () => undefined }
    : localStorage,
);

/**
 * Text, files and quick replies for one ticket. Every send carries a client-generated clientId,
 * so retrying a send that failed on the way is idempotent on the server.
 */
export function useTicketSender(ticketId: number) {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const [send] = useSendMessageMutation();
  const [failures, setFailures] = useState<LocalFailedSend[]>([]);
  const [warning, setWarning] = useState<string | null>(null);
  useEffect(() => {
    setFailures([]);
    setWarning(null);
  }, [ticketId]);

  /**
   * The desktop offline (issue #15): a text goes to the outbox, shown as a pending bubble until
   * main delivers it. Files are not queued (the outbox carries text only).
   */
  const queueOffline = async (
    body: string,
    options: { isPrivate?: boolean; quotedMsgId?: number | null; clientId?: string } = {},
  ): Promise<boolean> => {
    // The web app has no outbox: its chunk never loads the desktop's code (nor the outbox schema).
    if (!window.desktop) return false;
    const { enqueueText, expectedOf, offlineDesktop } = await import('../../desktop-offline/offline-send');
    const desktop = offlineDesktop();
    if (!desktop) return false;
    const ticket = ticketsApi.endpoints.getTicket.select(ticketId)(store.getState()).data;
    const clientId = await enqueueText(desktop, { ticketId, body, ...options, expected: expectedOf(ticket) }).catch(() => null);
    return clientId !== null;
  };

  const deliver = async (attempt: LocalFailedSend): Promise<boolean> => {
    if (!attempt.files.length && (await queueOffline(attempt.body, { quotedMsgId: attempt.quotedMsgId, clientId: attempt.clientId }))) {
      setFailures((list) => list.filter((f) => f.clientId !== attempt.clientId));
      return true;
    }
    const result = await send({
      ticketId,
      body: attempt.body,
      clientId: attempt.clientId,
      files: attempt.files,
      quotedMsgId: attempt.quotedMsgId ?? null,
    });
    if ('error' in result) {
      // The connection dropped on the way (the request never got an answer) and the desktop now
      // reports offline: the outbox takes the text from here.
      const noAnswer = isNoAnswer((result.error as { status?: unknown }).status);
      // Under the same client id: if the request did reach the server, the replay finds it stored.
      if (noAnswer && !attempt.files.length && (await queueOffline(attempt.body, { quotedMsgId: attempt.quotedMsgId, clientId: attempt.clientId }))) {
        setFailures((list) => list.filter((f) => f.clientId !== attempt.clientId));
        return true;
      }
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
    queueOffline,
    send: (body: string, files: File[], quotedMsgId?: number | null) => deliver({ clientId: newClientId(), body, files, quotedMsgId }),
    retry: (failure: LocalFailedSend) => deliver(failure),
  };
}

type ComposerDialog = 'buttons' | 'schedule' | 'contactCard' | 'mention' | 'forward' | 'template' | null;

export function Composer({
  ticketId,
  disabled,
  files,
  setFiles,
  sender,
  tools,
  isGroup = false,
}: {
  ticketId: number;
  disabled: boolean;
  files: File[];
  setFiles: Dispatch<SetStateAction<File[]>>;
  sender: ReturnType<typeof useTicketSender>;
  tools?: ChatTools;
  isGroup?: boolean;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [text, setText] = useState(() => drafts.read(ticketId));
  const [error, setError] = useState<string | null>(null);
  const [choices, setChoices] = useState<QuickReply[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [ghost, setGhost] = useState(false);
  const [dialog, setDialog] = useState<ComposerDialog>(null);
  const timeZone = useTenantTimeZone();
  const [emojiOpen, setEmojiOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const [loadQuickReplies] = useLazyGetAttendanceQuickRepliesQuery();
  const [sendGhost] = useSendGhostMessageMutation();
  const recorder = useAudioRecorder();
  const { data: messagingWindow } = useGetMessagingWindowQuery(ticketId);
  const replyTo = tools?.replyTo ?? null;

  useEffect(() => {
    setText(drafts.read(ticketId));
    setError(null);
    setChoices(null);
    setGhost(false);
    setDialog(null);
  }, [ticketId]);

  const change = (value: string) => {
    setText(value);
    drafts.write(ticketId, value);
    setError(null);
    setChoices(null);
    if (recorder.errorKey) recorder.clearError();
  };

  const insertEmoji = (emoji: string) => {
    const el = input.current;
    const next = insertAtSelection(text, el?.selectionStart ?? null, el?.selectionEnd ?? null, emoji);
    change(next.text);
    setEmojiOpen(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
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
    if (await sender.send(quick.message ?? '', [...files, ...quickFiles], replyTo?.id)) {
      change('');
      setFiles([]);
      tools?.setReplyTo(null);
    }
  };

  const submitGhost = async () => {
    if (!text.trim()) {
      setError(t('attendance.emptyMessage'));
      return;
    }
    // One client id for the note whichever way it goes: queued offline, sent now, or queued after
    // a send that got no answer (then the replay finds it if the server did store it).
    const clientId = newClientId();
    if (await sender.queueOffline(text, { isPrivate: true, clientId })) {
      change('');
      return;
    }
    const result = await sendGhost({ ticketId, body: text, clientId });
    if ('error' in result) {
      const noAnswer = isNoAnswer((result.error as { status?: unknown }).status);
      if (noAnswer && (await sender.queueOffline(text, { isPrivate: true, clientId }))) change('');
      else setError(describeError(result.error, t));
    } else change('');
  };

  const submit = async () => {
    if (busy || disabled) return;
    setBusy(true);
    try {
      if (ghost) {
        await submitGhost();
        return;
      }
      const intent = composerIntent(text, files.length);
      if (intent.kind === 'quickCommand') {
        const result = await loadQuickReplies(undefined, false);
        if (result.error) {
          setError(describeError(result.error, t));
          return;
        }
        const outcome = quickReplyOutcome(text, result.data ?? []);
        if (outcome.kind === 'error') setError(t(outcome.key, outcome.values));
        else if (outcome.kind === 'choose') setChoices(outcome.options);
        else await sendQuickReply(outcome.quickMessage);
        return;
      }
      if (intent.kind === 'empty') {
        setError(t('attendance.emptyMessage'));
        return;
      }
      const body = text;
      const sentFiles = files;
      const quoted = replyTo?.id ?? null;
      // The composer clears at once; a failed send stays in the thread with its retry button.
      change('');
      setFiles([]);
      tools?.setReplyTo(null);
      await sender.send(body, sentFiles, quoted);
    } finally {
      setBusy(false);
    }
  };

  const sendContactCard = async (contact: ContactDto) => {
    const card = new File([buildVCard(contact)], vcardFileName(contact.name), { type: 'text/vcard' });
    return sender.send('', [card]);
  };

  const toggleRecording = async () => {
    if (!recorder.recording) {
      await recorder.start();
      return;
    }
    const file = await recorder.stop();
    if (file) await sender.send('', [file], replyTo?.id);
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
  const afterToolSend = () => dispatch(messagesApi.util.invalidateTags(['Message']));

  const tool = (icon: Parameters<typeof Button>[0]['icon'], label: string, testId: string, onClick: () => void, active = false) => (
    <Tooltip content={label} placement="top" compact>
      <Button icon={icon} variant="minimal" size="small" active={active} aria-label={label} disabled={disabled} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );

  return (
    <div className={`composer${ghost ? ' is-ghost' : ''}`} data-testid="composer">
      <MessagingWindowBar ticketId={ticketId} />
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
      {recorder.errorKey && (
        <Callout intent="danger" compact data-testid="audio-error">
          {t(recorder.errorKey)}
        </Callout>
      )}
      {tools?.selecting && (
        <div className="forward-bar" data-testid="forward-bar">
          <span data-testid="forward-count">{t('chatTools.forward.selected', { count: tools.selected.length })}</span>
          <span className="chat-header-spacer" />
          <Button onClick={tools.stopSelecting} data-testid="forward-cancel">
            {t('chatTools.cancel')}
          </Button>
          <Button intent="primary" icon="share" disabled={tools.selected.length === 0} onClick={() => setDialog('forward')} data-testid="forward-open">
            {t('chatTools.forward.start')}
          </Button>
        </div>
      )}
      {tools?.selecting && tools.selectionError && (
        <Callout intent="danger" compact data-testid="forward-limit">
          {t(tools.selectionError)}
        </Callout>
      )}
      {replyTo && (
        <div className="composer-reply" data-testid="composer-reply">
          <div className="composer-reply-text">
            <strong>
              {t('chatTools.reply.replyingTo')} {replyTo.fromMe ? t('chatTools.reply.you') : t('chatTools.reply.contact')}
            </strong>
            <span>{replyTo.body || replyTo.mediaName || t('chatTools.reply.media')}</span>
          </div>
          <Button icon="cross" variant="minimal" size="small" aria-label={t('chatTools.reply.cancel')} onClick={() => tools?.setReplyTo(null)} data-testid="composer-reply-cancel" />
        </div>
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
      <div className="composer-toolbar" data-testid="composer-toolbar">
        <Popover isOpen={emojiOpen} onInteraction={setEmojiOpen} content={<EmojiPicker onPick={insertEmoji} />} placement="top-start">
          <Button icon="emoji" variant="minimal" size="small" aria-label={t('chatTools.emoji')} disabled={disabled} data-testid="composer-emoji" />
        </Popover>
        {tool('widget-button', t('chatTools.buttons.open'), 'composer-buttons', () => setDialog('buttons'))}
        {tool('time', t('chatTools.schedule.open'), 'composer-schedule', () => setDialog('schedule'))}
        {messagingWindow?.channelType === 'waba' && (
          <Button icon="document" variant="minimal" size="small" disabled={disabled} onClick={() => setDialog('template')} data-testid="composer-template">
            {t('chatTools.template.open')}
          </Button>
        )}
        {tool('id-number', t('chatTools.contactCard.open'), 'composer-contact-card', () => setDialog('contactCard'))}
        {tools && tool('share', t('chatTools.forward.start'), 'composer-forward', () => (tools.selecting ? tools.stopSelecting() : tools.startSelecting()), tools.selecting)}
        {isGroup && tool('at', t('chatTools.mention.open'), 'composer-mention', () => setDialog('mention'))}
        {tool('eye-off', t('chatTools.ghost.toggle'), 'composer-ghost', () => setGhost((g) => !g), ghost)}
        {tools && tool('search', t('chatTools.search.open'), 'composer-search', () => tools.setSearchOpen(!tools.searchOpen), tools.searchOpen)}
        <span className="chat-header-spacer" />
        {recorder.recording && (
          <span className="composer-recording" data-testid="audio-recording">
            <span className="recording-dot" /> {t('chatTools.audio.recording', { time: formatDuration(recorder.seconds) })}
            <Button size="small" variant="minimal" icon="trash" aria-label={t('chatTools.audio.discard')} onClick={() => void recorder.discard()} data-testid="audio-discard" />
          </span>
        )}
        {tool(recorder.recording ? 'stop' : 'record', recorder.recording ? t('chatTools.audio.stop') : t('chatTools.audio.record'), 'composer-record', () => void toggleRecording(), recorder.recording)}
      </div>
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
          inputRef={input}
          className="composer-input"
          value={text}
          disabled={disabled}
          placeholder={
            disabled ? t('attendance.composerDisabled') : ghost ? t('chatTools.ghost.placeholder') : t('attendance.composerPlaceholder')
          }
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
      {dialog === 'buttons' && (
        <ButtonsDialog ticketId={ticketId} initialText={text} onClose={() => setDialog(null)} onSent={() => change('')} />
      )}
      {dialog === 'schedule' && (
        <ScheduleFormDialog
          schedule={null}
          timeZone={timeZone}
          ticket={{ id: ticketId, initialText: text, onScheduled: () => change('') }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'template' && <TemplateDialog ticketId={ticketId} onClose={() => setDialog(null)} />}
      {dialog === 'contactCard' && <ContactCardDialog onClose={() => setDialog(null)} onSend={sendContactCard} />}
      {dialog === 'mention' && (
        <MentionDialog
          ticketId={ticketId}
          body={text}
          onClose={() => setDialog(null)}
          onSent={() => {
            change('');
            afterToolSend();
          }}
        />
      )}
      {dialog === 'forward' && tools && (
        <ForwardDialog messageIds={tools.selected} onClose={() => setDialog(null)} onForwarded={tools.stopSelecting} />
      )}
    </div>
  );
}
