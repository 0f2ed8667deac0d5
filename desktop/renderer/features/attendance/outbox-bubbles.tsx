import { Button, Icon } from '@blueprintjs/core';
import { useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../api/messages.api';
import { outboxStore, pendingBubbles, type BubbleState, type PendingAction } from '../../desktop-offline/outbox-store';

const STATE_ICONS: Record<BubbleState, 'time' | 'refresh' | 'warning-sign' | 'error' | 'tick'> = {
  queued: 'time',
  sending: 'refresh',
  conflict: 'warning-sign',
  failed: 'error',
  delivered: 'tick',
};

/** What a queued reaction or status change does, in the agent's words. */
function actionLabel(action: PendingAction, t: ReturnType<typeof useTranslation>['t']): string {
  if (action.kind === 'reaction') return action.emoji ? t('connection.pending.reaction', { emoji: action.emoji }) : t('connection.pending.reactionRemoved');
  if (action.status === 'closed') return t('connection.pending.statusClosed');
  if (action.status === 'pending') return t('connection.pending.statusPending');
  return t('connection.pending.statusOpen');
}

/**
 * The desktop's queued texts, notes, reactions and status changes of a ticket (issue #15), below the thread until the server's
 * message (same clientId) takes their place: queued, sending, a conflict with the server's reason
 * and "Descartar" / "Tentar de novo", or failed. Empty on the web (no outbox).
 */
export function OutboxBubbles({ ticketId, messages }: { ticketId: number; messages: readonly Message[] }) {
  const { t } = useTranslation();
  const { items, deliveredHere } = useSyncExternalStore(outboxStore.subscribe, outboxStore.get);
  const threadClientIds = useMemo(() => new Set(messages.map((m) => m.clientId).filter((id): id is string => Boolean(id))), [messages]);
  const bubbles = useMemo(
    () => pendingBubbles([...items.values()], ticketId, threadClientIds, deliveredHere),
    [items, ticketId, threadClientIds, deliveredHere],
  );
  if (!bubbles.length) return null;
  const outbox = window.desktop?.outbox;
  return (
    <>
      {bubbles.map((bubble) => (
        <div
          key={bubble.clientId}
          className={`message-row from-me is-outbox${bubble.isPrivate ? ' is-private' : ''}`}
          data-testid="message-pending"
          data-client-id={bubble.clientId}
          data-state={bubble.state}
        >
          <div className="message-bubble">
            {bubble.isPrivate && (
              <span className="message-private-mark">
                <Icon icon="eye-off" size={10} /> {t('chatTools.ghost.label')}
              </span>
            )}
            <span className="message-text">{bubble.action ? actionLabel(bubble.action, t) : bubble.body}</span>
            {bubble.error && (
              <div className="message-failed" data-testid="message-pending-error">
                {bubble.error}
              </div>
            )}
            <div className="message-meta">
              <span data-testid="message-pending-state">
                <Icon icon={STATE_ICONS[bubble.state]} size={12} /> {t(`connection.pending.${bubble.state}`)}
              </span>
            </div>
            {bubble.actionable && outbox && (
              <div className="message-pending-actions">
                <Button size="small" variant="minimal" icon="trash" onClick={() => void outbox.discard(bubble.clientId)} data-testid="message-pending-discard">
                  {t('connection.pending.discard')}
                </Button>
                <Button size="small" variant="minimal" icon="refresh" onClick={() => void outbox.retry(bubble.clientId)} data-testid="message-pending-retry">
                  {t('connection.pending.retry')}
                </Button>
              </div>
            )}
          </div>
        </div>
      ))}
    </>
  );
}
