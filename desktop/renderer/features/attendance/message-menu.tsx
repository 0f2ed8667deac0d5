import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, Menu, MenuDivider, MenuItem, Popover, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-mapper';
import {
  useCancelScheduledMessageMutation,
  useDeleteMessageMutation,
  useEditMessageMutation,
  useReactToMessageMutation,
  type Message,
} from '../../api/messages.api';
import { showToast } from '../../app/feedback/toaster';
import type { ChatTools } from './chat-tools';
import { messageActionsOf, REACTION_EMOJIS } from './composer-rules';

/**
 * The per-message menu: reply (quote), react, edit, delete, forward (checkbox mode) and cancel
 * a scheduled message. Refusals (ERR_DELETE_WAPP_MSG for old messages, a channel that cannot
 * edit) are shown by the app's toast and in the dialogs.
 */
export function MessageMenu({ message, tools }: { message: Message; tools: ChatTools }) {
  const { t } = useTranslation();
  const actions = messageActionsOf(message);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [react] = useReactToMessageMutation();
  const [remove, { isLoading: removing }] = useDeleteMessageMutation();
  const [cancelScheduled] = useCancelScheduledMessageMutation();
  // The desktop offline (issue #15): the reaction waits in the outbox (one per agent and message,
  // so a replay leaves the same result).
  const reactTo = async (emoji: string) => {
    if (window.desktop) {
      const { queueActionIfOffline } = await import('../../desktop-offline/offline-send');
      if (await queueActionIfOffline({ kind: 'reaction', ticketId: message.ticketId, messageId: message.id, emoji })) {
        showToast(t('connection.actionQueued'), 'warning');
        return;
      }
    }
    await react({ messageId: message.id, emoji });
  };
  if (actions.length === 0) return null;
  const ours = (message.reactions ?? []).find((r) => r.fromMe)?.emoji ?? null;

  const menu = (
    <Menu data-testid="message-menu">
      {actions.includes('react') && (
        <li className="message-menu-reactions" data-testid="message-menu-reactions">
          {REACTION_EMOJIS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              className={`reaction-choice bp6-popover-dismiss${ours === emoji ? ' is-ours' : ''}`}
              aria-label={`${t('chatTools.menu.react')} ${emoji}`}
              data-testid={`react-${emoji}`}
              onClick={() => void reactTo(ours === emoji ? '' : emoji)}
            >
              {emoji}
            </button>
          ))}
        </li>
      )}
      {actions.includes('react') && <MenuDivider />}
      {actions.includes('reply') && <MenuItem icon="undo" text={t('chatTools.menu.reply')} onClick={() => tools.setReplyTo(message)} data-testid="menu-reply" />}
      {actions.includes('edit') && <MenuItem icon="edit" text={t('chatTools.menu.edit')} onClick={() => setEditing(true)} data-testid="menu-edit" />}
      {actions.includes('forward') && (
        <MenuItem icon="share" text={t('chatTools.menu.forward')} onClick={() => tools.startSelecting(message.id)} data-testid="menu-forward" />
      )}
      {actions.includes('delete') && (
        <MenuItem icon="trash" intent="danger" text={t('chatTools.menu.delete')} onClick={() => setDeleting(true)} data-testid="menu-delete" />
      )}
      {actions.includes('cancelSchedule') && (
        <MenuItem
          icon="disable"
          intent="danger"
          text={t('chatTools.menu.cancelSchedule')}
          onClick={() => void cancelScheduled(message.id)}
          data-testid="menu-cancel-schedule"
        />
      )}
    </Menu>
  );

  return (
    <>
      <Popover content={menu} placement={message.fromMe ? 'bottom-end' : 'bottom-start'}>
        <Button
          className="message-menu-button"
          icon="chevron-down"
          size="small"
          variant="minimal"
          aria-label={t('chatTools.menu.open')}
          data-testid="message-menu-button"
        />
      </Popover>
      {editing && <EditDialog message={message} onClose={() => setEditing(false)} />}
      <Alert
        isOpen={deleting}
        intent="danger"
        icon="trash"
        loading={removing}
        cancelButtonText={t('chatTools.cancel')}
        confirmButtonText={t('chatTools.delete.submit')}
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          await remove({ id: message.id, messageId: message.messageId });
          setDeleting(false);
        }}
      >
        <p data-testid="delete-confirm">{t('chatTools.delete.confirm')}</p>
      </Alert>
    </>
  );
}

function EditDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const { t } = useTranslation();
  const [body, setBody] = useState(message.body);
  const [error, setError] = useState<string | null>(null);
  const [edit, { isLoading }] = useEditMessageMutation();
  const submit = async () => {
    if (!body.trim()) {
      setError(t('attendance.emptyMessage'));
      return;
    }
    const result = await edit({ messageId: message.id, body });
    if ('error' in result) setError(describeError(result.error, t));
    else onClose();
  };
  return (
    <Dialog isOpen onClose={onClose} title={t('chatTools.edit.title')}>
      <DialogBody>
        <TextArea value={body} onChange={(e) => setBody(e.target.value)} fill rows={3} autoFocus data-testid="edit-body" />
        {error && (
          <Callout intent="danger" compact data-testid="edit-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('chatTools.cancel')}</Button>
            <Button intent="primary" loading={isLoading} onClick={() => void submit()} data-testid="edit-submit">
              {t('chatTools.edit.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
