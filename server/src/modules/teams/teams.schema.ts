/** Request bodies of the team routes; declared in shared/ so the React client validates the same way. */
export { CreateTeamSchema, UpdateTeamSchema } from '@shared/schemas/teams';
export type { CreateTeamInput, UpdateTeamInput } from '@shared/schemas/teams';
