import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useClearChannelTicketsMutation,
  useCountActiveTicketsQuery,
  useTransferChannelTicketsMutation,
  type Channel,
} from '../../api/channels.api';
import { describeError } from '../../api/error-mapper';
import { showToast } from '../../app/feedback/toaster';
import { ChannelQrImage } from './channel-qr-image';
import { ChannelReasonNote } from './channel-reason-note';
import { statusIntent } from './channel-status';

/**
 * The QR code of a channel waiting to be paired, live: it follows the cached channel (session
 * events replace the code while the dialog is open) and says so when the phone has connected.
 */
export function ChannelQrDialog({ channel, onClose, onNewQr }: { channel: Channel; onClose(): void; onNewQr(): void }) {
  const { t } = useTranslation();
  const connected = channel.status === 'CONNECTED';
  return (
    <Dialog isOpen title={t('channels.qr.title', { name: channel.name })} icon="mobile-phone" onClose={onClose} className="channel-qr-dialog">
      <DialogBody>
        <div className="channel-qr-body" data-testid="channel-qr-dialog" data-status={channel.status}>
          {connected ? (
            <Callout intent="success" icon="tick-circle" data-testid="channel-qr-connected">
              {t('channels.qr.connected', { number: channel.number ?? '' })}
            </Callout>
          ) : channel.qrcode ? (
            <>
              <p>{t('channels.qr.scan')}</p>
              <ChannelQrImage value={channel.qrcode} />
            </>
          ) : (
            <div className="channel-qr-waiting">
              <Spinner size={32} />
              <p>{t('channels.qr.waiting')}</p>
            </div>
          )}
          {!connected && channel.pairingCode ? (
            <p className="channel-pairing-code">
              {t('channels.pairingCode')}: <strong data-testid="channel-qr-pairing-code">{channel.pairingCode}</strong>
            </p>
          ) : null}
          {!connected ? <ChannelReasonNote reason={channel.statusReason} intent={statusIntent(channel.status)} /> : null}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {!connected ? <Button icon="refresh" text={t('channels.actions.newQr')} onClick={onNewQr} /> : null}
            <Button intent="primary" text={t('channels.close')} onClick={onClose} data-testid="channel-qr-close" />
          </>
        }
      />
    </Dialog>
  );
}

/** Closes every open or pending ticket of the channel, after saying how many there are. */
export function ClearTicketsAlert({ channel, onClose }: { channel: Channel; onClose(): void }) {
  const { t } = useTranslation();
  const count = useCountActiveTicketsQuery(channel.id);
  const [clear, clearing] = useClearChannelTicketsMutation();
  const confirm = async () => {
    const result = await clear(channel.id);
    if ('data' in result && result.data) showToast(t('channels.clear.done', { count: result.data.count }), 'success');
    onClose();
  };
  const known = typeof count.data === 'number';
  return (
    <Alert
      isOpen
      intent="danger"
      icon="disable"
      confirmButtonText={t('channels.clear.confirmButton')}
      cancelButtonText={t('common.cancel')}
      loading={clearing.isLoading}
      onConfirm={() => void confirm()}
      onCancel={onClose}
      canEscapeKeyCancel={!clearing.isLoading}
    >
      <div data-testid="channel-clear-alert">
        <p>{t('channels.clear.question', { name: channel.name })}</p>
        <p data-testid="channel-clear-count">
          {count.isFetching ? (
            <Spinner size={16} />
          ) : known ? (
            t('channels.clear.count', { count: count.data as number })
          ) : (
            t('channels.clear.countUnknown')
          )}
        </p>
        <p className="crud-muted">{t('channels.clear.noMessages')}</p>
      </div>
    </Alert>
  );
}

/** Moves every active ticket of the channel to another channel of the tenant. */
export function TransferTicketsDialog({ channel, channels, onClose }: { channel: Channel; channels: Channel[]; onClose(): void }) {
  const { t } = useTranslation();
  const targets = channels.filter((c) => c.id !== channel.id);
  const [target, setTarget] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [transfer, transferring] = useTransferChannelTicketsMutation();
  const submit = async () => {
    if (target === null) return setError(t('channels.transfer.chooseTarget'));
    setError(null);
    try {
      const result = await transfer({ fromWhatsappId: channel.id, toWhatsappId: target }).unwrap();
      showToast(t('channels.transfer.done', { count: result.count, skipped: result.skipped.length }), 'success');
      onClose();
    } catch (failure) {
      setError(describeError(failure, t));
    }
  };
  return (
    <Dialog isOpen title={t('channels.transfer.title', { name: channel.name })} icon="swap-horizontal" onClose={transferring.isLoading ? undefined : onClose}>
      <DialogBody>
        <div data-testid="channel-transfer-dialog">
          <p>{t('channels.transfer.help')}</p>
          {targets.length === 0 ? (
            <Callout intent="warning">{t('channels.transfer.noTarget')}</Callout>
          ) : (
            <FormGroup label={t('channels.transfer.target')} labelFor="channel-transfer-target">
              <HTMLSelect
                id="channel-transfer-target"
                fill
                value={target === null ? '' : String(target)}
                onChange={(event) => setTarget(event.currentTarget.value ? Number(event.currentTarget.value) : null)}
                data-testid="channel-transfer-target"
              >
                <option value="">{t('channels.transfer.choose')}</option>
                {targets.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({t(`channels.types.${c.type}`)})
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
          {error ? (
            <Callout intent="danger" icon="error" role="alert" data-testid="channel-transfer-error">
              {error}
            </Callout>
          ) : null}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} disabled={transferring.isLoading} />
            <Button
              intent="primary"
              icon="swap-horizontal"
              text={t('channels.transfer.submit')}
              disabled={targets.length === 0}
              loading={transferring.isLoading}
              onClick={() => void submit()}
              data-testid="channel-transfer-submit"
            />
          </>
        }
      />
    </Dialog>
  );
}

export function StatusTag({ channel }: { channel: Pick<Channel, 'status'> }) {
  const { t } = useTranslation();
  return (
    <Tag intent={statusIntent(channel.status)} round data-testid="channel-status" data-status={channel.status}>
      {t(`channels.status.${channel.status}`)}
    </Tag>
  );
}
