import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  AnyMessageContent,
  AuthenticationState,
  BaileysEventMap,
  GroupMetadata,
  ParticipantAction,
  MiscMessageGenerationOptions,
  WAMessage,
  WAMessageKey,
} from '@whiskeysockets/baileys';

/**
 * The part of a Baileys socket (`ReturnType<typeof makeWASocket>`) the adapter uses. Real
 * sockets have it; the injected test socket (tests/fakes/baileys-socket.fake.ts) implements
 * exactly this, so what the tests exercise is this boundary.
 */
export interface WASocketLike {
  ev: {
    /** Baileys' batched event consumption (the socket buffers events while it syncs). */
    process(handler: (events: Partial<BaileysEventMap>) => void | Promise<void>): () => void;
  };
  user?: { id: string; name?: string; lid?: string } | undefined;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  requestPairingCode(phoneNumber: string, customPairingCode?: string): Promise<string>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): void | Promise<void>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  fetchMessageHistory?(count: number, oldestMsgKey: WAMessageKey, oldestMsgTimestamp: number): Promise<string>;
  updateMediaMessage?(message: WAMessage): Promise<WAMessage>;
  // Groups (Baileys 7 `makeGroupsSocket` / `makeChatsSocket`; same signatures).
  groupMetadata(jid: string): Promise<GroupMetadata>;
  groupFetchAllParticipating(): Promise<{ [jid: string]: GroupMetadata }>;
  groupCreate(subject: string, participants: string[]): Promise<GroupMetadata>;
  groupUpdateSubject(jid: string, subject: string): Promise<void>;
  groupUpdateDescription(jid: string, description?: string): Promise<void>;
  groupParticipantsUpdate(
    jid: string,
    participants: string[],
    action: ParticipantAction,
  ): Promise<{ status: string; jid: string | undefined; content?: unknown }[]>;
  updateProfilePicture(jid: string, content: Buffer | { url: string }, dimensions?: { width: number; height: number }): Promise<void>;
}

/** What the socket factory is given (a subset of Baileys' UserFacingSocketConfig). */
export interface SocketConfigLike {
  auth: AuthenticationState;
  logger: unknown;
  browser?: [string, string, string];
  markOnlineOnConnect?: boolean;
  syncFullHistory?: boolean;
  shouldSyncHistoryMessage?: (msg: unknown) => boolean;
  getMessage?: (key: WAMessageKey) => Promise<unknown>;
  agent?: unknown;
  fetchAgent?: unknown;
  qrTimeout?: number;
  [option: string]: unknown;
}

export type MakeSocket = (config: SocketConfigLike) => WASocketLike;
export type DownloadMedia = (
  message: WAMessage,
  type: 'buffer',
  options: Record<string, unknown>,
  ctx?: { reuploadRequest: (m: WAMessage) => Promise<WAMessage>; logger: unknown },
) => Promise<Buffer>;

/** Baileys' functions the provider needs, loaded on first use (the package is large). */
export interface BaileysLib {
  makeWASocket: MakeSocket;
  downloadMediaMessage: DownloadMedia;
  BufferJSON: { replacer: (k: string, v: unknown) => unknown; reviver: (k: string, v: unknown) => unknown };
  initAuthCreds: () => AuthenticationState['creds'];
  /** Rebuilds an app-state-sync-key read back from JSON (as useMultiFileAuthState does). */
  appStateSyncKeyFromObject: (value: unknown) => unknown;
  makeCacheableSignalKeyStore?: (store: AuthenticationState['keys'], logger?: unknown) => AuthenticationState['keys'];
  browser: [string, string, string];
}

let real: Promise<BaileysLib> | null = null;
const overridden = new Map<string, Promise<BaileysLib>>();

function loadReal(): Promise<BaileysLib> {
  real ??= import('@whiskeysockets/baileys').then((m) => {
    const mod = m as unknown as typeof import('@whiskeysockets/baileys') & { default?: unknown };
    const make = (typeof mod.makeWASocket === 'function' ? mod.makeWASocket : mod.default) as unknown as MakeSocket;
    return {
      makeWASocket: make,
      downloadMediaMessage: mod.downloadMediaMessage as unknown as DownloadMedia,
      BufferJSON: mod.BufferJSON,
      initAuthCreds: mod.initAuthCreds,
      appStateSyncKeyFromObject: (value) => mod.proto.Message.AppStateSyncKeyData.fromObject(value as object),
      makeCacheableSignalKeyStore: mod.makeCacheableSignalKeyStore as unknown as BaileysLib['makeCacheableSignalKeyStore'],
      browser: mod.Browsers.ubuntu('Chrome'),
    };
  });
  return real;
}

/**
 * Baileys, or (tests only, BAILEYS_SOCKET_MODULE) Baileys with the module's `makeWASocket`
 * (and `downloadMediaMessage`, when it exports one) in place of its own. Serialisation and
 * credential helpers are always Baileys' own, so the stored auth state is the real format.
 */
export function loadBaileys(socketModule?: string): Promise<BaileysLib> {
  if (!socketModule) return loadReal();
  let lib = overridden.get(socketModule);
  if (!lib) {
    const url = pathToFileURL(path.resolve(socketModule)).href;
    lib = Promise.all([loadReal(), import(url) as Promise<Record<string, unknown>>]).then(([base, mod]) => {
      if (typeof mod.makeWASocket !== 'function') throw new Error(`BAILEYS_SOCKET_MODULE ${socketModule} exports no makeWASocket`);
      return {
        ...base,
        makeWASocket: mod.makeWASocket as MakeSocket,
        downloadMediaMessage: (typeof mod.downloadMediaMessage === 'function'
          ? mod.downloadMediaMessage
          : base.downloadMediaMessage) as DownloadMedia,
        // An injected socket ignores it; the real store's cache would only hide writes from tests.
        makeCacheableSignalKeyStore: undefined,
      };
    });
    overridden.set(socketModule, lib);
  }
  return lib;
}
