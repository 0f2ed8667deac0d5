/** Request bodies of the queue routes; declared in shared/ so the React client validates the same way. */
export { CreateQueueSchema, UpdateQueueSchema } from '@shared/schemas/queues';
export type { CreateQueueInput, UpdateQueueInput } from '@shared/schemas/queues';
