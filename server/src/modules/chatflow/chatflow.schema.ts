import { z } from 'zod';

/** Request bodies of the chat-flow routes; declared in shared/ so the builder validates the same way. */
export { ChatFlowExportSchema, CreateChatFlowSchema, UpdateChatFlowSchema } from '@shared/schemas/chatflow';
export type { ChatFlowExport, CreateChatFlowInput, UpdateChatFlowInput } from '@shared/schemas/chatflow';

/** GET /chat-flow: `?active=true` answers the active flows' summaries (the transfer dialog's select). */
export const ChatFlowListQuerySchema = z.object({
  active: z.enum(['true', 'false'], { error: 'use active=true ou active=false' }).optional(),
});
export type ChatFlowListQuery = z.infer<typeof ChatFlowListQuerySchema>;
