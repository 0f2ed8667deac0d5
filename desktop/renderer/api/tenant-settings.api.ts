import { baseApi } from './base.api';

/** White-label colours: a list of `{ colourName: cssValue }` objects (spec section 3). */
export type SystemColors = Record<string, string>[];

export const tenantSettingsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPublicSystemColors: build.query<SystemColors, void>({
      query: () => '/publicSystemColors',
      providesTags: ['SystemColors'],
      extraOptions: { anonymous: true, background: true },
    }),
  }),
});

export const { useGetPublicSystemColorsQuery } = tenantSettingsApi;
