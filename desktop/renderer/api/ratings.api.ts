import type { RatingFilters, RatingListAnswer } from '@shared/schemas/ratings';
import type { RatingSettings, RatingSettingsInput } from '@shared/schemas/tenant-settings';
import { baseApi } from './base.api';
import { reportFilterParams } from './reports.api';

/**
 * Ratings (issue #14, docs/api.md): the tenant's rating settings (GET/PUT /tenants/rating/) and
 * the ratings list with its averages (GET /ratings). Filters are the output of the shared
 * RatingFiltersSchema (days as yyyy-MM-dd, id lists).
 */
export type { RatingListAnswer, RatingSettings };

export interface RatingListArgs {
  filters: RatingFilters;
  pageNumber: number;
  pageSize: number;
}

export const ratingsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getRatingSettings: build.query<RatingSettings, void>({
      query: () => '/tenants/rating/',
      providesTags: ['RatingSettings'],
    }),
    updateRatingSettings: build.mutation<RatingSettings, RatingSettingsInput>({
      query: (body) => ({ url: '/tenants/rating/', method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(ratingsApi.util.upsertQueryData('getRatingSettings', undefined, data));
      },
      invalidatesTags: (_result, error) => (error ? [] : ['Rating']),
    }),
    listRatings: build.query<RatingListAnswer, RatingListArgs>({
      query: ({ filters, pageNumber, pageSize }) => ({
        url: '/ratings',
        params: { ...reportFilterParams(filters as Record<string, unknown>), pageNumber, pageSize },
      }),
      providesTags: ['Rating'],
    }),
  }),
});

export const { useGetRatingSettingsQuery, useUpdateRatingSettingsMutation, useListRatingsQuery } = ratingsApi;
