import type { ActivateLicenceInput, Licence } from '@shared/schemas/licence';
import { baseApi } from './base.api';

/** The platform licence (super administrator, /assinatura). */
export const licenceApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getLicence: build.query<Licence, void>({
      query: () => '/admin/licence',
      providesTags: ['Licence'],
    }),
    activateLicence: build.mutation<Licence, ActivateLicenceInput>({
      query: (body) => ({ url: '/admin/licence', method: 'PUT', body }),
      invalidatesTags: ['Licence'],
    }),
  }),
});

export const { useGetLicenceQuery, useActivateLicenceMutation } = licenceApi;
