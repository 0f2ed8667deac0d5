import { baileysProvider } from './baileys/baileys.provider';
import type { AdapterFactories } from './adapter-context';
import type { ChannelType } from './channel-adapter';
import type { ChannelProvider, ProviderDeps } from './channel-provider';
import { evolutionProvider } from './evolution/evolution.provider';
import { hubProvider } from './hub/hub.provider';
import { metaProvider } from './meta/meta.provider';
import { meowProvider } from './meow/meow.provider';
import { newTelegramWebhookSecret, TelegramAdapter } from './telegram/telegram-adapter';
import { WabaAdapter } from './waba/waba-adapter';
import { wuzapiProvider } from './wuzapi/wuzapi.provider';

/** WhatsApp Cloud API (its webhook routes are in modules/webhooks). */
const wabaProvider: ChannelProvider = {
  types: ['waba'],
  factory: (deps) => (ctx) => new WabaAdapter(ctx, { baseUrl: deps.config.wabaGraphBaseUrl }),
};

/** Telegram Bot API (its webhook route is in modules/webhooks). */
const telegramProvider: ChannelProvider = {
  types: ['telegram'],
  factory: (deps) => (ctx) =>
    new TelegramAdapter(ctx, {
      baseUrl: deps.config.telegramApiBaseUrl,
      publicUrl: deps.config.publicUrl,
      timeoutMs: deps.config.telegramTimeoutMs,
    }),
  // Ours: Telegram echoes it in X-Telegram-Bot-Api-Secret-Token.
  initialSecrets: () => ({ telegramWebhookSecret: newTelegramWebhookSecret() }),
};

/** Every provider, once. A new provider adds itself here and nowhere else. */
export const CHANNEL_PROVIDERS: readonly ChannelProvider[] = [
  wabaProvider,
  telegramProvider,
  metaProvider,
  hubProvider,
  evolutionProvider,
  wuzapiProvider,
  meowProvider,
  baileysProvider,
];

export function providerOf(type: ChannelType | string): ChannelProvider | undefined {
  return CHANNEL_PROVIDERS.find((p) => (p.types as readonly string[]).includes(type));
}

/** The adapter factories of the providers that are available. */
export function providerFactories(deps: ProviderDeps, providers: readonly ChannelProvider[] = CHANNEL_PROVIDERS): AdapterFactories {
  const factories: AdapterFactories = {};
  for (const provider of providers) {
    if (!provider.factory) continue;
    const factory = provider.factory(deps);
    for (const type of provider.types) factories[type] = factory;
  }
  return factories;
}
