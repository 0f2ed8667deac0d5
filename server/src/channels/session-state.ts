import { SESSION_STATUSES, type SessionStatus } from './channel-adapter';

/**
 * Channel session state machine (spec section 4, "Channel session"). A session opens
 * (OPENING), may wait for a QR code scan (qrcode, which repeats with each new code), ends
 * CONNECTED, or falls to TIMEOUT (QR not scanned), CONNECTION_LOST (dropped while connected)
 * or DISCONNECTED (logged out, refused credentials). Anything else is a provider bug or a race
 * between two writers, and is refused rather than stored.
 */
const NEXT: Record<SessionStatus, readonly SessionStatus[]> = {
  DISCONNECTED: ['OPENING', 'qrcode'],
  OPENING: ['qrcode', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT', 'CONNECTION_LOST'],
  qrcode: ['qrcode', 'OPENING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT'],
  CONNECTED: ['OPENING', 'CONNECTION_LOST', 'DISCONNECTED'],
  TIMEOUT: ['OPENING', 'qrcode', 'DISCONNECTED'],
  CONNECTION_LOST: ['OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED'],
};

export function canTransition(from: SessionStatus, to: SessionStatus): boolean {
  return NEXT[from].includes(to);
}

/** The states `to` may be entered from (for a compare-and-set UPDATE). */
export function statesLeadingTo(to: SessionStatus): SessionStatus[] {
  return SESSION_STATUSES.filter((from) => canTransition(from, to));
}
