/** Request bodies of the tag routes; declared in shared/ so the React client validates the same way. */
export { CreateTagSchema, UpdateTagSchema } from '@shared/schemas/tags';
export type { CreateTagInput, UpdateTagInput } from '@shared/schemas/tags';
