/** Request bodies of the demand (motivo) routes; declared in shared/ so the React client validates the same way. */
export { CreateDemandSchema, UpdateDemandSchema } from '@shared/schemas/demands';
export type { CreateDemandInput, UpdateDemandInput } from '@shared/schemas/demands';
