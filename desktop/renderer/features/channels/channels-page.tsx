import { Button, ButtonGroup, Callout, Card, Icon, Menu, MenuDivider, MenuItem, Popover, Tag, Tooltip } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteChannelMutation,
  useEndSessionMutation,
  useListChannelsQuery,
  useRestartSessionMutation,
  useSetDefaultChannelMutation,
  useStartSessionMutation,
  useSyncChannelMessagesMutation,
  type Channel,
} from '../../api/channels.api';
import { showToast } from '../../app/feedback/toaster';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { useWriteAccess } from '../../app/crud/write-access';
import { AllTenantsChannelsPage } from './all-tenants-channels-page';
import { ChannelFormDialog } from './channel-form-dialog';
import { ChannelQrDialog, ClearTicketsAlert, StatusTag, TransferTicketsDialog } from './channel-dialogs';
import { ChannelReasonNote } from './channel-reason-note';
import { ChannelQrImage } from './channel-qr-image';
import { subscribeChannelNotices } from './channel-realtime';
import { isQrChannel } from './channel-form.logic';
import { sessionActions } from './channel-status';
import './channels.css';

type Notice = {
  importSync?: { done: number | null; total: number | null };
  battery?: { level: number | null; plugged: boolean | null };
};

/**
 * /sessoes (admins and supervisors of a tenant; /sessoestenants, the platform's super
 * administrator's view of every tenant, is AllTenantsChannelsPage): one card per channel with its type, number, live session state, default flag
 * and webhook address, and the actions of spec section 2. Supervisors see the channels and may
 * close or move their tickets; only administrators configure them (the server decides too).
 */
export function ChannelsPage({ routeId }: { routeId: 'sessoes' | 'sessoestenants' }) {
  return routeId === 'sessoestenants' ? <AllTenantsChannelsPage /> : <TenantChannelsPage />;
}

function TenantChannelsPage() {
  const routeId = 'sessoes';
  const { t } = useTranslation();
  const { canWrite, canAdmin } = useWriteAccess();
  const list = useListChannelsQuery();
  const channels = list.data ?? [];
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [clearing, setClearing] = useState<Channel | null>(null);
  const [transferring, setTransferring] = useState<Channel | null>(null);
  const [notices, setNotices] = useState<Record<number, Notice>>({});
  const [deleteChannel, deletion] = useDeleteChannelMutation();
  const [startSession] = useStartSessionMutation();
  const [restartSession] = useRestartSessionMutation();
  const [endSession] = useEndSessionMutation();
  const [setDefault] = useSetDefaultChannelMutation();
  const [syncMessages] = useSyncChannelMessagesMutation();

  useEffect(
    () =>
      subscribeChannelNotices((event) => {
        if (event.channelId === null) return;
        const id = event.channelId;
        setNotices((current) => ({
          ...current,
          [id]: {
            ...current[id],
            ...(event.kind === 'importSync'
              ? { importSync: { done: event.done, total: event.total } }
              : { battery: { level: event.level, plugged: event.plugged } }),
          },
        }));
      }),
    [],
  );

  const qrChannel = qrFor === null ? null : (channels.find((c) => c.id === qrFor) ?? null);

  // A refusal (ERR_CONNECTION_LIMIT, ERR_CHANNEL_OPERATION_UNSUPPORTED ...) is toasted by the base query.
  const run = async (action: Promise<{ data?: unknown; error?: unknown }>, okKey: string) => {
    const result = await action;
    if (!('error' in result) || result.error === undefined) showToast(t(okKey), 'success');
    return result;
  };
  const connect = async (channel: Channel, fresh: boolean) => {
    if (isQrChannel(channel.type)) setQrFor(channel.id);
    const result = await run(fresh ? restartSession(channel.id) : startSession(channel.id), 'channels.sessionStarted');
    if (result.error !== undefined) setQrFor(null);
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteChannel(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  return (
    <CrudPage
      routeId={routeId}
      description={t('channels.description')}
      add={canAdmin ? { label: t('channels.add'), onClick: () => setEditing('new'), testId: 'channel-add' } : null}
      readOnlyNotice={canAdmin ? null : t('channels.readOnly')}
      list={list}
      isEmpty={channels.length === 0}
      empty={{ icon: 'mobile-phone', title: t('channels.empty'), description: t('channels.emptyHelp') }}
      dialogs={
        <>
          {editing ? <ChannelFormDialog channel={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
          {qrChannel ? (
            <ChannelQrDialog channel={qrChannel} onClose={() => setQrFor(null)} onNewQr={() => void connect(qrChannel, true)} />
          ) : null}
          {clearing ? <ClearTicketsAlert channel={clearing} onClose={() => setClearing(null)} /> : null}
          {transferring ? (
            <TransferTicketsDialog channel={transferring} channels={channels} onClose={() => setTransferring(null)} />
          ) : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
    >
      <div className="channel-grid" data-testid="channel-list">
        {channels.map((channel) => {
          const actions = sessionActions(channel);
          const notice = notices[channel.id];
          return (
            <Card
              key={channel.id}
              className="channel-card"
              data-testid="channel-card"
              data-channel-id={channel.id}
              data-status={channel.status}
            >
              <header className="channel-card-header">
                <div className="channel-card-title">
                  <strong data-testid="channel-card-name">{channel.name}</strong>
                  {channel.isDefault ? (
                    <Tag minimal intent="primary" icon="star" data-testid="channel-default">
                      {t('channels.default')}
                    </Tag>
                  ) : null}
                </div>
                <StatusTag channel={channel} />
              </header>
              <dl className="channel-card-facts">
                <dt>{t('channels.type')}</dt>
                <dd data-testid="channel-type-label">{t(`channels.types.${channel.type}`)}</dd>
                <dt>{t('channels.number')}</dt>
                <dd data-testid="channel-number">
                  {channel.number || <span className="crud-muted">{t('channels.noNumber')}</span>}
                </dd>
                {channel.retries > 0 ? (
                  <>
                    <dt>{t('channels.retries')}</dt>
                    <dd>{channel.retries}</dd>
                  </>
                ) : null}
              </dl>
              <ChannelReasonNote
                reason={channel.statusReason}
                intent={channel.status === 'CONNECTED' ? 'none' : 'danger'}
                className="channel-card-reason"
              />
              {channel.webhookUrl ? <WebhookUrl url={channel.webhookUrl} /> : null}
              {actions.showQr && channel.qrcode ? (
                <button
                  type="button"
                  className="channel-card-qr"
                  onClick={() => setQrFor(channel.id)}
                  aria-label={t('channels.actions.showQr')}
                >
                  <ChannelQrImage value={channel.qrcode} size={128} />
                </button>
              ) : null}
              {channel.pairingCode && channel.status !== 'CONNECTED' ? (
                <p className="channel-pairing-code">
                  {t('channels.pairingCode')}: <strong data-testid="channel-pairing-code">{channel.pairingCode}</strong>
                </p>
              ) : null}
              {notice?.importSync ? (
                <Callout intent="primary" icon="import" className="channel-card-reason" data-testid="channel-import-sync">
                  {notice.importSync.total !== null && notice.importSync.done !== null
                    ? t('channels.importSync', { done: notice.importSync.done, total: notice.importSync.total })
                    : t('channels.importSyncRunning')}
                </Callout>
              ) : null}
              {notice?.battery ? (
                <Callout intent="warning" icon="lightning" className="channel-card-reason" data-testid="channel-battery">
                  {notice.battery.level !== null
                    ? t('channels.batteryLow', { level: notice.battery.level })
                    : t('channels.batteryLowUnknown')}
                </Callout>
              ) : null}
              <footer className="channel-card-actions">
                <ButtonGroup>
                  {canAdmin && actions.showQr ? (
                    <Button
                      size="small"
                      intent="primary"
                      icon="mobile-phone"
                      text={t('channels.actions.showQr')}
                      onClick={() => setQrFor(channel.id)}
                      data-testid="channel-show-qr"
                    />
                  ) : null}
                  {canAdmin && actions.connect ? (
                    <Button
                      size="small"
                      intent="success"
                      icon="play"
                      text={t('channels.actions.connect')}
                      onClick={() => void connect(channel, false)}
                      data-testid="channel-connect"
                    />
                  ) : null}
                  {canAdmin && actions.newQr ? (
                    <Button
                      size="small"
                      icon="refresh"
                      text={t('channels.actions.newQr')}
                      onClick={() => void connect(channel, true)}
                      data-testid="channel-new-qr"
                    />
                  ) : null}
                  {canAdmin && actions.disconnect ? (
                    <Button
                      size="small"
                      intent="danger"
                      icon="offline"
                      text={t('channels.actions.disconnect')}
                      onClick={() => void run(endSession(channel.id), 'channels.sessionEnded')}
                      data-testid="channel-disconnect"
                    />
                  ) : null}
                </ButtonGroup>
                {canWrite ? (
                  <Popover
                    placement="bottom-end"
                    content={
                      <Menu data-testid="channel-menu">
                        {canAdmin ? (
                          <MenuItem
                            icon="edit"
                            text={t('crud.edit')}
                            onClick={() => setEditing(channel)}
                            data-testid="channel-edit"
                          />
                        ) : null}
                        {canAdmin && !channel.isDefault ? (
                          <MenuItem
                            icon="star"
                            text={t('channels.actions.setDefault')}
                            onClick={() => void run(setDefault(channel.id), 'channels.defaultSet')}
                            data-testid="channel-set-default"
                          />
                        ) : null}
                        {isQrChannel(channel.type) ? (
                          // History import exists for QR-code channels only, once connected.
                          <MenuItem
                            icon="import"
                            text={t('channels.actions.sync')}
                            disabled={!actions.sync}
                            onClick={() => void run(syncMessages(channel.id), 'channels.syncStarted')}
                            data-testid="channel-sync"
                          />
                        ) : null}
                        <MenuDivider />
                        <MenuItem
                          icon="disable"
                          text={t('channels.actions.clearTickets')}
                          onClick={() => setClearing(channel)}
                          data-testid="channel-clear"
                        />
                        <MenuItem
                          icon="swap-horizontal"
                          text={t('channels.actions.transfer')}
                          onClick={() => setTransferring(channel)}
                          data-testid="channel-transfer"
                        />
                        {canAdmin ? (
                          <>
                            <MenuDivider />
                            <MenuItem
                              intent="danger"
                              icon="trash"
                              text={t('crud.delete')}
                              onClick={() => setDeleting(channel)}
                              data-testid="channel-delete"
                            />
                          </>
                        ) : null}
                      </Menu>
                    }
                  >
                    <Button
                      size="small"
                      variant="minimal"
                      icon="more"
                      aria-label={`${t('channels.actions.more')}: ${channel.name}`}
                      data-testid="channel-more"
                    />
                  </Popover>
                ) : null}
              </footer>
            </Card>
          );
        })}
      </div>
    </CrudPage>
  );
}

/** The address to configure at the provider, with a copy button. */
function WebhookUrl({ url }: { url: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      showToast(t('channels.copied'), 'success');
    } catch {
      showToast(t('channels.copyFailed'), 'warning');
    }
  };
  return (
    <div className="channel-webhook">
      <span className="channel-webhook-label">
        <Icon icon="link" size={12} /> {t('channels.webhookUrl')}
      </span>
      <div className="channel-webhook-row">
        <code data-testid="channel-webhook-url">{url}</code>
        <Tooltip content={t('channels.copy')}>
          <Button
            size="small"
            variant="minimal"
            icon="duplicate"
            aria-label={t('channels.copy')}
            onClick={() => void copy()}
            data-testid="channel-webhook-copy"
          />
        </Tooltip>
      </div>
    </div>
  );
}
