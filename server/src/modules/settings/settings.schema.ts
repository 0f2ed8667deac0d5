/** Request body of PUT /settings/:settingKey; declared in shared/ so the React client validates the same way. */
export { UpdateSettingSchema, SETTING_VALUE_SCHEMAS, findSettingsConflict } from '@shared/schemas/settings';
export type { UpdateSettingInput, SettingEntry, SettingsUpdatePayload } from '@shared/schemas/settings';
