import type { Intent } from '@blueprintjs/core';
import type { ChannelDto } from '@shared/schemas/channels';
import { isQrChannel } from './channel-form.logic';

/** How a session state reads on a card: its colour and which actions make sense now. */
export type SessionStatus = ChannelDto['status'];

export function statusIntent(status: SessionStatus): Intent {
  switch (status) {
    case 'CONNECTED':
      return 'success';
    case 'qrcode':
    case 'OPENING':
      return 'warning';
    default:
      return 'danger';
  }
}

export interface SessionActions {
  connect: boolean;
  newQr: boolean;
  showQr: boolean;
  disconnect: boolean;
  sync: boolean;
}

/**
 * The anchor's buttons by state: a disconnected channel connects (or asks a new QR code); one
 * waiting for its QR code shows it; a connected one disconnects; history sync is for QR-code
 * channels that are connected.
 */
export function sessionActions(channel: Pick<ChannelDto, 'type' | 'status' | 'qrcode' | 'pairingCode'>): SessionActions {
  const qr = isQrChannel(channel.type);
  const idle = channel.status === 'DISCONNECTED' || channel.status === 'TIMEOUT' || channel.status === 'CONNECTION_LOST';
  return {
    connect: idle,
    newQr: qr && channel.status !== 'CONNECTED',
    showQr: qr && channel.status === 'qrcode',
    disconnect: !idle || channel.status === 'CONNECTION_LOST',
    sync: qr && channel.status === 'CONNECTED',
  };
}
