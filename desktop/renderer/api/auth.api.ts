import type { CaptchaAnswer, CaptchaChallenge } from '@shared/captcha';
import type { LoginResponse } from '../app/session/app-storage';
import { baseApi } from './base.api';

/** Authentication and account calls of spec section 7. */
export interface LoginRequest extends CaptchaAnswer {
  email: string;
  password: string;
}

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      // The refresh cookie is set on this answer, so the browser must accept it.
      query: (body) => ({ url: '/auth/login/', method: 'POST', body, credentials: 'include' }),
      extraOptions: { anonymous: true },
    }),
    // A mutation, not a query: every login needs a fresh challenge, never a cached one.
    getCaptcha: build.mutation<CaptchaChallenge, void>({
      query: () => ({ url: '/auth/captcha', method: 'GET' }),
      extraOptions: { anonymous: true },
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: '/auth/logout/', method: 'POST', credentials: 'include' }),
      extraOptions: { anonymous: true },
    }),
    requestPasswordReset: build.mutation<unknown, { email: string }>({
      query: (body) => ({ url: '/password-reset', method: 'POST', body }),
      extraOptions: { anonymous: true },
    }),
    resetPassword: build.mutation<{ message?: string }, { token: string; password: string }>({
      query: (body) => ({ url: '/reset-password', method: 'POST', body }),
      extraOptions: { anonymous: true },
    }),
  }),
});

export const { useLoginMutation, useGetCaptchaMutation, useLogoutMutation, useRequestPasswordResetMutation, useResetPasswordMutation } = authApi;
