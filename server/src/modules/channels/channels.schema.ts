/** Request bodies of the channel routes; declared in shared/ so the React client validates the same way. */
export { AdminCreateChannelSchema, CreateChannelSchema, UpdateChannelSchema } from '@shared/schemas/channels';
export type { CreateChannelInput, UpdateChannelInput } from '@shared/schemas/channels';
export { ChannelBirthdaySchema, ChannelFarewellSchema } from '@shared/schemas/birthdays';
