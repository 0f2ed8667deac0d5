/** Request bodies of the users routes; declared in shared/ so the React client validates the same way. */
export { UpdateUserConfigsSchema, UpdateUserOnlineSchema } from '@shared/schemas/users';
export type { UpdateUserConfigsInput, UpdateUserOnlineInput } from '@shared/schemas/users';
