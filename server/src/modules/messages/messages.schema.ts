/** Request schemas of the messages routes; declared in shared/ so the React client validates the same way. */
export {
  DeleteMessageSchema,
  EditMessageSchema,
  ForwardMessagesSchema,
  GhostMessageSchema,
  ListParticipantsSchema,
  MentionAllMessageSchema,
  MentionMessageSchema,
  MessageListQuerySchema,
  ReactionMessageSchema,
  ScheduleMessageSchema,
  ScheduledMessagesQuerySchema,
  SearchMessageQuerySchema,
  SendBirthdaySchema,
  SendButtonSchema,
  SendMessageSchema,
  SendNowSchema,
  SyncOldMessagesSchema,
  UpdateMessageSchema,
} from '@shared/schemas/messages';
export { SendTemplateSchema } from '@shared/schemas/templates';
