/** Request bodies of the tenant settings routes; declared in shared/ so the React client validates the same way. */
export {
  BusinessHoursSchema,
  MessageBusinessHoursSchema,
  RatingSettingsSchema,
  SystemColorsSchema,
} from '@shared/schemas/tenant-settings';
export type { BusinessHoursDay, RatingSettingsInput, SystemColors } from '@shared/schemas/tenant-settings';
