/** Request bodies of the quick-message routes; declared in shared/ so the React client validates the same way. */
export {
  CreateQuickMessageSchema,
  UpdateQuickMessageSchema,
  QUICK_MESSAGE_MEDIA_FIELD,
  QUICK_MESSAGE_MEDIA_MAX_BYTES,
} from '@shared/schemas/quick-messages';
export type { CreateQuickMessageInput, UpdateQuickMessageInput } from '@shared/schemas/quick-messages';
