import type {
  CreatedTenantApiTokenView,
  CreateTenantApiTokenInput,
  TenantApiTokenView,
  TenantOptionView,
} from '@shared/schemas/platform-ops';
import { baseApi } from './base.api';

/** Tenant API tokens (/tenantApi): GET/POST /platform/tenant-api-tokens, DELETE /platform/tenant-api-tokens/{id}. */
export const tenantApiApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listTenantApiTokens: build.query<TenantApiTokenView[], void>({
      query: () => '/platform/tenant-api-tokens',
      providesTags: ['TenantApiToken'],
    }),
    listTenantOptions: build.query<TenantOptionView[], void>({
      query: () => '/platform/tenant-api-tokens/tenants',
    }),
    createTenantApiToken: build.mutation<CreatedTenantApiTokenView, CreateTenantApiTokenInput>({
      query: (body) => ({ url: '/platform/tenant-api-tokens', method: 'POST', body }),
      invalidatesTags: ['TenantApiToken'],
    }),
    revokeTenantApiToken: build.mutation<TenantApiTokenView, number>({
      query: (id) => ({ url: `/platform/tenant-api-tokens/${id}`, method: 'DELETE' }),
      invalidatesTags: ['TenantApiToken'],
    }),
  }),
});

export const {
  useListTenantApiTokensQuery,
  useListTenantOptionsQuery,
  useCreateTenantApiTokenMutation,
  useRevokeTenantApiTokenMutation,
} = tenantApiApi;
