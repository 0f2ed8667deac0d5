import type { ChannelProvider } from '../channel-provider';
import { BaileysAdapter, BaileysSessions } from './baileys-adapter';

/**
 * QR-paired WhatsApp sessions through Baileys (types 'baileys' and 'whatsapp'): the adapter holds
 * a WhatsApp Web socket per channel, its login kept in PostgreSQL (channel_auth_state). No webhook:
 * messages and statuses arrive on the socket. Sessions resume when the server starts.
 * BAILEYS_SOCKET_MODULE (tests only) replaces Baileys' makeWASocket with an injected socket.
 */
export const baileysProvider: ChannelProvider = {
  types: ['baileys', 'whatsapp'],
  factory: (deps) => {
    // One set of live sockets per registry (server process), shared by the channels' adapters.
    const sessions = new BaileysSessions();
    return (ctx) =>
      new BaileysAdapter(ctx, {
        dataSource: deps.dataSource,
        logger: deps.logger,
        socketModule: deps.config.baileysSocketModule,
        sessions,
      });
  },
  resumeOnStart: true,
};
