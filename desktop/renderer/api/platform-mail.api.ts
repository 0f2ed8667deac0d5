import type { PlatformMailSettings, PlatformMailSettingsRequest } from '@shared/schemas/platform-mail';
import { baseApi } from './base.api';

/** The platform's SMTP settings (super administrator, /configuracoesTenant/smtp-tenant). */
export const platformMailApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPlatformMail: build.query<PlatformMailSettings, void>({
      query: () => '/admin/platform-mail',
      providesTags: ['PlatformMail'],
    }),
    updatePlatformMail: build.mutation<PlatformMailSettings, PlatformMailSettingsRequest>({
      query: (body) => ({ url: '/admin/platform-mail', method: 'PUT', body }),
      invalidatesTags: ['PlatformMail'],
    }),
    resetPlatformMail: build.mutation<PlatformMailSettings, void>({
      query: () => ({ url: '/admin/platform-mail', method: 'DELETE' }),
      invalidatesTags: ['PlatformMail'],
    }),
    sendPlatformTestMail: build.mutation<{ message: string }, { to: string }>({
      query: (body) => ({ url: '/admin/platform-mail/test', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetPlatformMailQuery,
  useUpdatePlatformMailMutation,
  useResetPlatformMailMutation,
  useSendPlatformTestMailMutation,
} = platformMailApi;
