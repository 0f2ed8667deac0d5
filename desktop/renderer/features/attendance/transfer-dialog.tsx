import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLSelect, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListActiveChatFlowsQuery } from '../../api/chatflow.api';
import { describeError } from '../../api/error-mapper';
import {
  useChannelTicketMutation,
  useChatbotTicketMutation,
  useGetAttendanceChannelsQuery,
  useGetAttendanceQueuesQuery,
  useGetAttendanceUsersQuery,
  useUpdateTicketMutation,
  type Ticket,
} from '../../api/tickets.api';
import { useAppSelector } from '../../app/store-hooks';
import { TransferUserChoice } from './transfer-user-choice';

type TransferTarget = 'queue' | 'user' | 'chatbot' | 'channel';

/**
 * Transfer to a queue, a user (with each user's presence), the chatbot (PUT /ticketsChatBot) or
 * another channel (PUT /ticketsChannelId). The section 5 refusals come back as the server's Portuguese texts
 * ('Ticket já pertence ao usuário selecionado.' …) and show in the dialog.
 */
export function TransferDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useAppSelector((s) => s.session.userId);
  const myName = useAppSelector((s) => s.session.username);
  // Queues, users and channels change elsewhere without a socket patch here: read them fresh.
  const { data: queues } = useGetAttendanceQueuesQuery(undefined, { refetchOnMountOrArgChange: true });
  const { data: others } = useGetAttendanceUsersQuery(undefined, { refetchOnMountOrArgChange: true });
  const { data: channels, isError: channelsRefused } = useGetAttendanceChannelsQuery(undefined, { refetchOnMountOrArgChange: true });
  // The caller is here and active: shown online.
  const users = [
    ...(me ? [{ id: me, name: t('consolePanel.filters.me', { name: myName ?? '' }), presence: 'online' as const }] : []),
    ...(others ?? []),
  ];
  const [target, setTarget] = useState<TransferTarget>('queue');
  // The tenant's active flows (GET /chat-flow?active=true, every profile), asked when the tab opens.
  const flows = useListActiveChatFlowsQuery(undefined, { skip: target !== 'chatbot', refetchOnMountOrArgChange: true });
  const [queueId, setQueueId] = useState<number | null>(ticket.queueId ?? queues?.[0]?.id ?? null);
  const [userId, setUserId] = useState<number | null>(null);
  const [userQueueId, setUserQueueId] = useState<number | null>(ticket.queueId ?? null);
  const [chatFlowId, setChatFlowId] = useState<number | null>(ticket.chatFlowId ?? null);
  const [whatsappId, setWhatsappId] = useState<number | null>(null);
  const [update, updateState] = useUpdateTicketMutation();
  const [chatbot, chatbotState] = useChatbotTicketMutation();
  const [channel, channelState] = useChannelTicketMutation();
  const [error, setError] = useState<string | null>(null);
  const loading = updateState.isLoading || chatbotState.isLoading || channelState.isLoading;

  const finish = (result: { error?: unknown } | { data?: unknown }) => {
    if ('error' in result && result.error) setError(describeError(result.error, t));
    else onClose();
  };
  const submit = async () => {
    setError(null);
    if (target === 'queue') {
      if (!queueId) return setError(t('attendance.transfer.chooseQueue'));
      return finish(await update({ id: ticket.id, body: { isTransference: true, queueId } }));
    }
    if (target === 'user') {
      if (!userId) return setError(t('consolePanel.transfer.chooseUser'));
      return finish(await update({ id: ticket.id, body: { isTransference: true, userId, ...(userQueueId ? { queueId: userQueueId } : {}) } }));
    }
    if (target === 'chatbot') {
      if (!chatFlowId) return setError(t('consolePanel.transfer.chooseFlow'));
      return finish(await chatbot({ id: ticket.id, body: { chatFlowId } }));
    }
    if (!whatsappId) return setError(t('consolePanel.transfer.chooseChannel'));
    return finish(await channel({ id: ticket.id, whatsappId }));
  };

  return (
    <Dialog isOpen onClose={onClose} title={t('attendance.transfer.title')} data-testid="transfer-dialog">
      <DialogBody>
        <Tabs
          id="transfer-target"
          selectedTabId={target}
          onChange={(id) => {
            setTarget(id as TransferTarget);
            setError(null);
          }}
        >
          <Tab id="queue" title={t('consolePanel.transfer.toQueue')} data-testid="transfer-tab-queue" />
          <Tab id="user" title={t('consolePanel.transfer.toUser')} data-testid="transfer-tab-user" />
          <Tab id="chatbot" title={t('consolePanel.transfer.toChatbot')} data-testid="transfer-tab-chatbot" />
          <Tab id="channel" title={t('consolePanel.transfer.toChannel')} data-testid="transfer-tab-channel" />
        </Tabs>
        <div className="console-transfer-body">
          {target === 'queue' && (
            <label className="bp6-label">
              {t('attendance.transfer.queue')}
              <HTMLSelect value={queueId ?? ''} onChange={(e) => setQueueId(Number(e.target.value) || null)} data-testid="transfer-queue" fill>
                <option value="">{t('attendance.transfer.chooseQueue')}</option>
                {(queues ?? []).map((q) => (
                  <option key={q.id} value={q.id}>
                    {q.name}
                  </option>
                ))}
              </HTMLSelect>
            </label>
          )}
          {target === 'user' && (
            <>
              <div className="bp6-label">
                {t('consolePanel.transfer.user')}
                <TransferUserChoice users={users} value={userId} onChange={setUserId} />
              </div>
              <label className="bp6-label">
                {t('consolePanel.transfer.userQueue')}
                <HTMLSelect
                  value={userQueueId ?? ''}
                  onChange={(e) => setUserQueueId(Number(e.target.value) || null)}
                  data-testid="transfer-user-queue"
                  fill
                >
                  <option value="">{t('consolePanel.transfer.keepQueue')}</option>
                  {(queues ?? []).map((q) => (
                    <option key={q.id} value={q.id}>
                      {q.name}
                    </option>
                  ))}
                </HTMLSelect>
              </label>
            </>
          )}
          {target === 'chatbot' && (
            <>
              <label className="bp6-label">
                {t('consolePanel.transfer.chatFlow')}
                <HTMLSelect
                  value={chatFlowId ?? ''}
                  onChange={(e) => setChatFlowId(Number(e.target.value) || null)}
                  data-testid="transfer-chatflow"
                  fill
                >
                  <option value="">{t('consolePanel.transfer.chooseFlowOption')}</option>
                  {(flows.data ?? []).map((flow) => (
                    <option key={flow.id} value={flow.id}>
                      {flow.name}
                    </option>
                  ))}
                </HTMLSelect>
              </label>
              {flows.isSuccess && flows.data.length === 0 && (
                <span className="bp6-text-muted" data-testid="transfer-chatflow-none">
                  {t('consolePanel.transfer.noActiveFlows')}
                </span>
              )}
              <p className="bp6-text-muted">{t('consolePanel.transfer.chatbotHint')}</p>
              {ticket.botActive && (
                <Button
                  icon="person"
                  onClick={async () => {
                    setError(null);
                    finish(await chatbot({ id: ticket.id, body: { botActive: false } }));
                  }}
                  data-testid="transfer-chatbot-off"
                >
                  {t('consolePanel.transfer.chatbotOff')}
                </Button>
              )}
            </>
          )}
          {target === 'channel' && (
            <label className="bp6-label">
              {t('consolePanel.transfer.channel')}
              <HTMLSelect value={whatsappId ?? ''} onChange={(e) => setWhatsappId(Number(e.target.value) || null)} data-testid="transfer-channel" fill>
                <option value="">{t('consolePanel.transfer.chooseChannel')}</option>
                {(channels ?? [])
                  .filter((c) => c.id !== ticket.whatsappId)
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name} ({c.type})
                    </option>
                  ))}
              </HTMLSelect>
              {channelsRefused && <span className="bp6-text-muted">{t('consolePanel.filters.connectionsRefused')}</span>}
            </label>
          )}
        </div>
        {error && (
          <Callout intent="danger" compact data-testid="transfer-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button intent="primary" loading={loading} onClick={() => void submit()} data-testid="transfer-submit">
              {t('attendance.transfer.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
