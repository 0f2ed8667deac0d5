import type { BusinessHoursDay, BusinessHoursResponse } from '@shared/schemas/tenant-settings';
import { baseApi } from './base.api';

/** White-label colours: a list of `{ colourName: cssValue }` objects (spec section 3). */
export type SystemColors = Record<string, string>[];

export type { BusinessHoursDay, BusinessHoursResponse };

export const tenantSettingsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPublicSystemColors: build.query<SystemColors, void>({
      query: () => '/publicSystemColors',
      providesTags: ['SystemColors'],
      extraOptions: { anonymous: true, background: true },
    }),
    /** The week (7 days) and the absence message of the caller's tenant. */
    getBusinessHours: build.query<BusinessHoursResponse, void>({
      query: () => '/tenants/business-hours/',
      providesTags: ['BusinessHours'],
    }),
    updateBusinessHours: build.mutation<BusinessHoursResponse, BusinessHoursDay[]>({
      query: (days) => ({ url: '/tenants/business-hours/', method: 'PUT', body: days }),
      async onQueryStarted(_days, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(tenantSettingsApi.util.upsertQueryData('getBusinessHours', undefined, data));
      },
    }),
    updateBusinessHoursMessage: build.mutation<BusinessHoursResponse, string>({
      query: (messageBusinessHours) => ({
        url: '/tenants/message-business-hours/',
        method: 'PUT',
        body: { messageBusinessHours },
      }),
      async onQueryStarted(_message, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(tenantSettingsApi.util.upsertQueryData('getBusinessHours', undefined, data));
      },
    }),
  }),
});

export const {
  useGetPublicSystemColorsQuery,
  useGetBusinessHoursQuery,
  useUpdateBusinessHoursMutation,
  useUpdateBusinessHoursMessageMutation,
} = tenantSettingsApi;
