import type { ChannelProvider } from '../channel-provider';

/**
 * Evolution channels. Not available yet: without a factory, creating one answers
 * ERR_CHANNEL_TYPE_UNSUPPORTED. The provider's adapter, client and webhook go in this folder.
 */
export const evolutionProvider: ChannelProvider = {
  types: ['evo'],
};
