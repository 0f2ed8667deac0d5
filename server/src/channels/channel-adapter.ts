/**
 * The one interface every channel provider implements (ARCHITECTURE: Channels). Providers live
 * in server/src/channels/<provider>/ and register in the channel registry; every provider base
 * URL is configurable so tests run the real adapter against a local fake of its protocol.
 */

export const CHANNEL_TYPES = ['waba', 'baileys', 'whatsapp', 'meow', 'evo', 'wuzapi', 'telegram', 'hub', 'instagram', 'messenger'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** Session states of spec section 4 (anchor spelling, which its clients read). */
export const SESSION_STATUSES = ['qrcode', 'OPENING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT', 'CONNECTION_LOST'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** A channels row as adapters see it (secrets included; never sent to clients). */
export interface ChannelRecord {
  id: number;
  tenantId: number;
  type: ChannelType;
  name: string;
  status: SessionStatus;
  number: string | null;
  providerConfig: Record<string, unknown>;
  secrets: Record<string, unknown>;
}

export interface OutboundTarget {
  /** Provider address: phone digits with country code, a chat id, a page-scoped id ... */
  to: string;
  isGroup: boolean;
}

export interface OutboundMedia {
  /** Absolute path of the stored file (tenant media folder). */
  path: string;
  fileName: string;
  mimeType: string;
  caption?: string;
  /** Quick messages "send as recorded audio". */
  sendAsVoice?: boolean;
}

export interface SendOptions {
  /** Provider id of the message being replied to (quoted reply). */
  quotedProviderMessageId?: string;
  /**
   * Group participants the text mentions (provider ids: WhatsApp JIDs, or digits with country
   * code). Only adapters with `groups` honour it; the others never receive it (the send path
   * refuses mentions on channels without groups).
   */
  mentions?: string[];
}

export interface SendResult {
  providerMessageId: string;
  /** Unix seconds, when the provider says. */
  timestamp?: number;
}

export interface TemplateSend {
  name: string;
  language: string;
  /** Body variables {{1}}, {{2}} ... in order. */
  variables: string[];
  /** Header variables (a text header's {{1}}). */
  header?: string[];
  /** URL button variables: the button's index in the template and its {{1}} value. */
  buttons?: { index: number; text: string }[];
  /** The media of an IMAGE, VIDEO or DOCUMENT header: its https link (and a document's file name). */
  headerMedia?: { format: 'IMAGE' | 'VIDEO' | 'DOCUMENT'; link: string; filename?: string };
}

export interface InteractiveButton {
  id: string;
  title: string;
}

export interface ChannelAdapter {
  readonly type: ChannelType;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  status(): SessionStatus;
  sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult>;
  sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult>;
  sendButtons(target: OutboundTarget, body: string, buttons: InteractiveButton[], opts?: SendOptions): Promise<SendResult>;
  sendTemplate(target: OutboundTarget, template: TemplateSend): Promise<SendResult>;
  sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult>;
  editMessage(target: OutboundTarget, providerMessageId: string, text: string): Promise<SendResult>;
  deleteMessage(target: OutboundTarget, providerMessageId: string): Promise<void>;
  /** The channel was deleted: end what it holds at the provider (log out, remove webhook or instance). */
  destroy?(): Promise<void>;
  /** The server is stopping: close live connections without ending the session (it resumes on start). */
  shutdown?(): Promise<void>;
  /**
   * Asks the provider whether this channel's account answers (a cheap authenticated read),
   * without changing the session; throws ChannelSendError otherwise. Present on providers whose
   * session is only their HTTP API (Cloud API, Messenger Platform, Telegram, hub): the outbound
   * delivery marks such a channel CONNECTION_LOST when its provider cannot be reached, and this
   * check brings it back. Providers that hold their own session (Baileys, gateways) report it.
   */
  checkProvider?(): Promise<void>;
  /** Group administration, on providers whose account takes part in groups (Baileys); absent elsewhere. */
  readonly groups?: ChannelGroupsApi;
  /**
   * The phone's contacts the provider has been told about (QR sessions: the address book names
   * WhatsApp syncs to a linked device); absent on providers that have none (Cloud API, Telegram ...).
   */
  phoneContacts?(): Promise<PhoneContact[]>;
}

/** A group member as a provider reports it. */
export interface GroupMember {
  /** Provider id (a WhatsApp JID: `…@s.whatsapp.net` or `…@lid`). */
  id: string;
  /** Digits with country code, when the provider tells the phone number. */
  phone: string | null;
  admin: 'admin' | 'superadmin' | null;
}

/** A group the channel's account takes part in. */
export interface ChannelGroup {
  /** Provider id (`…@g.us`). */
  id: string;
  subject: string;
  description: string | null;
  owner: string | null;
  /** Only admins may send messages. */
  announce: boolean;
  /** Only admins may change the group's settings. */
  restrict: boolean;
  participants: GroupMember[];
}

export type GroupParticipantAction = 'add' | 'remove' | 'promote' | 'demote';

/** The provider's answer for one participant of a participants change ('200' is success). */
export interface GroupParticipantResult {
  id: string;
  status: string;
  ok: boolean;
}

/** Group administration through a channel (its session must be connected). */
export interface ChannelGroupsApi {
  list(): Promise<ChannelGroup[]>;
  get(groupId: string): Promise<ChannelGroup>;
  /** Participants as digits with country code or provider ids. */
  create(subject: string, participants: string[]): Promise<ChannelGroup>;
  setSubject(groupId: string, subject: string): Promise<void>;
  setDescription(groupId: string, description: string): Promise<void>;
  setPicture(groupId: string, image: Buffer): Promise<void>;
  updateParticipants(groupId: string, participants: string[], action: GroupParticipantAction): Promise<GroupParticipantResult[]>;
  /** Deletes someone's message in the group for everyone (the account must be a group admin). */
  deleteMessage(groupId: string, providerMessageId: string, participant: string): Promise<void>;
}

/** A contact of the phone's address book (or a sender it learned the name of). */
export interface PhoneContact {
  /** Provider id (JID). */
  id: string;
  /** Digits with country code, when known. */
  phone: string | null;
  /** The name saved on the phone. */
  name: string | null;
  /** The name the person set on WhatsApp. */
  notify: string | null;
}

/** Something happened to a group's members (normalised `group-participants.update`). */
export interface GroupParticipantsEvent {
  kind: 'participants';
  channelId: number;
  tenantId: number;
  groupId: string;
  action: GroupParticipantAction | 'modify';
  participants: GroupMember[];
  /** Who did it (provider id), when told. */
  author: string | null;
}

/** Groups the account joined or whose details changed (normalised `groups.upsert` / `groups.update`). */
export interface GroupsChangedEvent {
  kind: 'groups';
  channelId: number;
  tenantId: number;
  /** Full groups (joined, created) or partial changes (subject, description); fields absent are unchanged. */
  groups: (Partial<ChannelGroup> & { id: string })[];
}

export type GroupEvent = GroupParticipantsEvent | GroupsChangedEvent;

/** How a provider call failed at the transport level, when it got no usable answer. */
export interface NoAnswer {
  /** The provider gave no answer: connection refused, reset or closed, no answer in time. */
  noAnswer?: boolean;
  /**
   * The request may have reached the provider before its answer was lost (connection reset or
   * closed mid-answer, no answer in time, a 2xx whose body could not be read). None of our
   * providers takes an idempotency key, so a send that failed this way is not resent blindly:
   * it fails as unconfirmed and the agent decides (docs/architecture.md, delivery guarantees).
   */
  mayHaveArrived?: boolean;
}

/**
 * A provider call that failed. `retryable` (timeouts, 5xx, 429, connection refused) means the
 * send stays pending and is retried with backoff; otherwise (4xx: invalid number, bad token) the
 * message is marked failed ("Mensagem não entregue") with the provider's reason. `transport`
 * says when there was no answer at all, and whether the request may have arrived anyway.
 */
export class ChannelSendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly providerStatus?: number,
    readonly providerCode?: string,
    /** How long the provider asked us to wait (Retry-After, Telegram's retry_after), in ms. */
    readonly retryAfterMs?: number,
    readonly transport: NoAnswer = {},
  ) {
    super(message);
    this.name = 'ChannelSendError';
  }

  /** The send may have reached the provider (see NoAnswer.mayHaveArrived). */
  get mayHaveArrived(): boolean {
    return this.transport.mayHaveArrived === true;
  }

  /** The provider could not be reached or is failing (no answer, or a 5xx). */
  get providerUnreachable(): boolean {
    return this.transport.noAnswer === true || (this.providerStatus !== undefined && this.providerStatus >= 500);
  }
}

/** Longest wait a provider's Retry-After may impose on one try. */
export const RETRY_AFTER_MAX_MS = 15 * 60_000;

/**
 * Retry-After of an HTTP answer (delta-seconds or an HTTP date) in ms, capped; undefined when
 * absent or unreadable.
 */
export function retryAfterMsOf(headers: Headers | undefined, now = Date.now()): number | undefined {
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value) ? Number(value) : (Date.parse(value) - now) / 1000;
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.min(Math.round(seconds * 1000), RETRY_AFTER_MAX_MS);
}

export type IdentityKind = 'phone' | 'wa' | 'lid' | 'telegram' | 'instagram' | 'messenger' | 'hub';

export type InboundMessageType =
  | 'chat'
  | 'image'
  | 'audio'
  | 'video'
  | 'document'
  | 'sticker'
  | 'location'
  | 'contactCard'
  | 'button'
  | 'interactive'
  | 'reaction'
  | 'template'
  | 'unsupported';

/** An inbound message normalised by its adapter; the inbound pipeline takes it from here. */
export interface InboundMessage {
  channelId: number;
  tenantId: number;
  providerMessageId: string;
  from: {
    kind: IdentityKind;
    externalId: string;
    /** Digits with country code, when the provider gives a phone number. */
    phone?: string;
    name?: string;
    profilePicUrl?: string;
  };
  isGroup: boolean;
  /** Unix seconds. */
  timestamp: number;
  type: InboundMessageType;
  body: string;
  media?: {
    providerMediaId?: string;
    mimeType?: string;
    fileName?: string;
    /** Fetches the bytes from the provider (may fail: ERR_WAPP_DOWNLOAD_MEDIA). */
    download(): Promise<Buffer>;
  };
  quotedProviderMessageId?: string;
  reaction?: { targetProviderMessageId: string; emoji: string };
  location?: { latitude: number; longitude: number; name?: string };
  /**
   * Group messages: who wrote it (the participant) and the text as written (the body carries a
   * "Name: " prefix for the agents). Group moderation reads these.
   */
  groupSender?: { id: string; phone?: string; name?: string; text: string };
  raw?: unknown;
}

/** A delivery status for an outbound message (becomes its ack). */
export interface StatusUpdate {
  channelId: number;
  tenantId: number;
  providerMessageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  error?: string;
  /** Unix seconds. */
  timestamp: number;
}

/** ack values the anchor clients read: 0 pending, 1 sent, 2 delivered, 3 read, -1 failed. */
export const ACK_BY_STATUS = { pending: 0, sent: 1, delivered: 2, read: 3, failed: -1 } as const;
