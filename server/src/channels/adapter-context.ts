import type { Config } from '../config';
import type { Logger } from '../core/logger';
import type { ChannelAdapter, ChannelRecord, ChannelType, SessionStatus } from './channel-adapter';
import type { InboundPort } from './channel-port';

/** What a session change may carry besides the state itself. */
export interface SessionChange {
  /** Why the session is in this state (shown on the connections screen); null clears it. */
  reason?: string | null;
  /** The channel's own number, once the provider says it. */
  number?: string | null;
  /** QR code payload while in `qrcode`. */
  qrcode?: string | null;
  /** Pairing code (login by phone number instead of QR) while in `qrcode`. */
  pairingCode?: string | null;
}

/** What the registry gives a provider's adapter when it builds one. */
export interface AdapterContext {
  record: ChannelRecord;
  config: Config;
  logger: Logger;
  /**
   * Moves the session through the state machine (session-state.ts): persisted on
   * channels.status and announced to the tenant's supervisors and admins. Answers the state
   * now stored; an invalid transition throws ERR_WAPP_SESSION_TRANSITION.
   */
  setStatus(next: SessionStatus, change?: SessionChange): Promise<SessionStatus>;
  /**
   * The inbound pipeline, for providers whose messages arrive on a connection the adapter
   * holds (Baileys) rather than on a webhook route. Set by the registry.
   */
  inbound?: InboundPort;
}

export type AdapterFactory = (ctx: AdapterContext) => ChannelAdapter;

/** Providers whose adapter exists; the registry refuses the other CHANNEL_TYPES. */
export type AdapterFactories = Partial<Record<ChannelType, AdapterFactory>>;
