/** Request schemas of the ticket routes; declared in shared/ so the React client validates the same way. */
export {
  CreateTicketNoteSchema,
  CreateTicketSchema,
  ForceTicketSchema,
  MassTransferSchema,
  NullUserTicketSchema,
  TicketChannelIdSchema,
  TicketChatBotSchema,
  TicketListQuerySchema,
  TicketRatingSchema,
  TicketsChannelSchema,
  TicketsClearQuerySchema,
  TicketsMarkAllReadQuerySchema,
  UpdateTicketSchema,
} from '@shared/schemas/tickets';
export type {
  CreateTicketInput,
  ForceTicketInput,
  MassTransferInput,
  NullUserTicketInput,
  TicketChannelIdInput,
  TicketChatBotInput,
  TicketListQuery,
  TicketsChannelInput,
  TicketsClearQuery,
  TicketsMarkAllReadQuery,
  UpdateTicketInput,
} from '@shared/schemas/tickets';
export { TicketRecordsQuerySchema } from '@shared/schemas/ticket-records';
