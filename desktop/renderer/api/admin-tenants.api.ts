import type {
  AdminTenantDto,
  AdminUserListResponse,
  CreateTenantInput,
  SupportAccessResponse,
  SupportSessionDto,
  TenantDeletionDto,
  UpdateTenantInput,
} from '@shared/schemas/admin-tenants';
import { baseApi } from './base.api';

export type { AdminTenantDto, SupportSessionDto, TenantDeletionDto };

/** The platform super administrator's tenants, their users, deletions and support accesses. */
export const adminTenantsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listAdminTenants: build.query<AdminTenantDto[], void>({
      query: () => '/admin/tenants',
      providesTags: ['AdminTenant'],
    }),
    createAdminTenant: build.mutation<AdminTenantDto, CreateTenantInput>({
      query: (body) => ({ url: '/admin/tenants', method: 'POST', body }),
      invalidatesTags: ['AdminTenant', 'Plan'],
    }),
    updateAdminTenant: build.mutation<AdminTenantDto, { id: number; body: UpdateTenantInput }>({
      query: ({ id, body }) => ({ url: `/admin/empresa/${id}`, method: 'PUT', body }),
      invalidatesTags: ['AdminTenant', 'Plan'],
    }),
    setTenantStatus: build.mutation<AdminTenantDto, { id: number; status: 'active' | 'inactive' }>({
      query: ({ id, status }) => ({ url: `/admin/status/tenant/${id}`, method: 'PUT', body: { status } }),
      invalidatesTags: ['AdminTenant'],
    }),
    deleteAdminTenant: build.mutation<TenantDeletionDto, { id: number; force: boolean }>({
      query: ({ id, force }) => ({ url: `/admin/tenants/${id}${force ? '?force=true' : ''}`, method: 'DELETE' }),
      invalidatesTags: ['AdminTenant'],
    }),
    listTenantDeletions: build.query<TenantDeletionDto[], void>({
      query: () => '/admin/tenant-deletions',
      providesTags: ['AdminTenant'],
    }),
    listSupportSessions: build.query<SupportSessionDto[], number>({
      query: (tenantId) => `/admin/tenants/${tenantId}/support-sessions`,
      providesTags: ['AdminTenant'],
    }),
    startSupport: build.mutation<SupportAccessResponse, { tenantId: number; reason: string }>({
      query: ({ tenantId, reason }) => ({ url: `/admin/tenants/${tenantId}/support`, method: 'POST', body: { reason } }),
      invalidatesTags: ['AdminTenant'],
    }),
    listAdminUsers: build.query<AdminUserListResponse, { tenantId?: number; searchParam?: string; pageNumber?: number }>({
      query: (params) => ({ url: '/admin/users', params }),
      providesTags: ['TenantUser'],
    }),
    linkUserTenant: build.mutation<unknown, { userId: number; tenantId: number }>({
      query: (body) => ({ url: '/userTenants', method: 'POST', body }),
      invalidatesTags: ['TenantUser'],
    }),
    unlinkUserTenant: build.mutation<void, { linkId: number; tenantId: number }>({
      query: ({ linkId, tenantId }) => ({ url: `/userTenants/${linkId}`, method: 'DELETE', body: { tenantId } }),
      invalidatesTags: ['TenantUser'],
    }),
    restartTenantChannel: build.mutation<unknown, number>({
      query: (id) => ({ url: `/admin/channels/${id}/session`, method: 'PUT' }),
      invalidatesTags: ['Channel'],
    }),
    disconnectTenantChannel: build.mutation<unknown, number>({
      query: (id) => ({ url: `/admin/channels/${id}/session`, method: 'DELETE' }),
      invalidatesTags: ['Channel'],
    }),
    deleteTenantChannel: build.mutation<void, number>({
      query: (id) => ({ url: `/admin/channels/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Channel', 'AdminTenant'],
    }),
  }),
});

export const {
  useListAdminTenantsQuery,
  useCreateAdminTenantMutation,
  useUpdateAdminTenantMutation,
  useSetTenantStatusMutation,
  useDeleteAdminTenantMutation,
  useListTenantDeletionsQuery,
  useListSupportSessionsQuery,
  useStartSupportMutation,
  useListAdminUsersQuery,
  useLinkUserTenantMutation,
  useUnlinkUserTenantMutation,
  useRestartTenantChannelMutation,
  useDisconnectTenantChannelMutation,
  useDeleteTenantChannelMutation,
} = adminTenantsApi;
