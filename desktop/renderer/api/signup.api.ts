import type { CaptchaAnswer } from '@shared/captcha';
import type {
  PendingSignup,
  SignupConfirmResponse,
  SignupRequest,
  SignupResponse,
  SignupSettings,
  SignupStatusResponse,
} from '@shared/schemas/signup';
import { baseApi } from './base.api';

/** Self sign-up (public) and its administration by the super administrator (issue #17). */
export type SignupBody = Omit<SignupRequest, 'captchaToken' | 'captchaSolution'> & CaptchaAnswer;

export const signupApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSignupStatus: build.query<SignupStatusResponse, void>({
      query: () => '/empresa/signup/status',
      extraOptions: { anonymous: true },
    }),
    signup: build.mutation<SignupResponse, SignupBody>({
      query: (body) => ({ url: '/empresa/signup', method: 'POST', body }),
      extraOptions: { anonymous: true },
    }),
    confirmSignup: build.mutation<SignupConfirmResponse, { token: string }>({
      query: (body) => ({ url: '/empresa/signup/confirm', method: 'POST', body }),
      extraOptions: { anonymous: true },
    }),
    listPendingSignups: build.query<PendingSignup[], void>({
      query: () => '/admin/signups',
      providesTags: ['PendingSignup'],
    }),
    confirmPendingSignup: build.mutation<SignupConfirmResponse, number>({
      query: (tenantId) => ({ url: `/admin/signups/${tenantId}/confirm`, method: 'POST' }),
      invalidatesTags: ['PendingSignup'],
    }),
    getSignupSettings: build.query<SignupSettings, void>({
      query: () => '/admin/signup-settings',
      providesTags: ['SignupSettings'],
    }),
    updateSignupSettings: build.mutation<SignupSettings, SignupSettings>({
      query: (body) => ({ url: '/admin/signup-settings', method: 'PUT', body }),
      invalidatesTags: ['SignupSettings'],
    }),
  }),
});

export const {
  useGetSignupStatusQuery,
  useSignupMutation,
  useConfirmSignupMutation,
  useListPendingSignupsQuery,
  useConfirmPendingSignupMutation,
  useGetSignupSettingsQuery,
  useUpdateSignupSettingsMutation,
} = signupApi;
