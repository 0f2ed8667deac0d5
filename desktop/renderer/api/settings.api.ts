import type { SettingKey } from '@shared/settings';
import type { SettingEntry } from '@shared/schemas/settings';
import { baseApi } from './base.api';

/** Tenant settings, general tab: GET /settings (absent keys show their default), PUT /settings/{key} (admin). */
export type { SettingEntry };

export const settingsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listSettings: build.query<SettingEntry[], void>({
      query: () => '/settings',
      providesTags: ['Settings'],
    }),
    /** Shown at once; a refused value (ERR_SETTINGS_CONFLICT...) is put back. */
    updateSetting: build.mutation<SettingEntry, { key: SettingKey; value: string }>({
      query: ({ key, value }) => ({ url: `/settings/${encodeURIComponent(key)}`, method: 'PUT', body: { value } }),
      async onQueryStarted({ key, value }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          settingsApi.util.updateQueryData('listSettings', undefined, (draft) => {
            const entry = draft.find((setting) => setting.key === key);
            if (entry) entry.value = value;
            else draft.push({ key, value });
          }),
        );
        await queryFulfilled.catch(() => patch.undo());
      },
    }),
  }),
});

export const { useListSettingsQuery, useUpdateSettingMutation } = settingsApi;
