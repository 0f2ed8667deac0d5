import type { Profile } from '@shared/profiles';
import type { UserConfigs } from '../app/session/app-storage';
import { baseApi } from './base.api';

/** The user calls the session code needs (spec section 7, Users). */
export interface UserProfile {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  tenantId: number;
  queues?: unknown[];
  configs?: UserConfigs | null;
  isOnline?: boolean;
}

export const usersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUser: build.query<UserProfile, number>({
      query: (id) => `/users/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'User', id }],
      // Polled every 30 s: never flash the loading overlay for it.
      extraOptions: { background: true },
    }),
    updateUserConfigs: build.mutation<unknown, { id: number; configs: UserConfigs }>({
      query: ({ id, configs }) => ({ url: `/users/${id}/configs`, method: 'PUT', body: configs }),
      async onQueryStarted({ id, configs }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          usersApi.util.updateQueryData('getUser', id, (draft) => {
            draft.configs = { ...draft.configs, ...configs };
          }),
        );
        await queryFulfilled.catch(() => patch.undo());
      },
    }),
    setUserOnline: build.mutation<unknown, { id: number; isOnline: boolean }>({
      query: ({ id, isOnline }) => ({ url: `/usersIsOnline/${id}`, method: 'PUT', body: { isOnline } }),
      extraOptions: { background: true },
    }),
  }),
});

export const { useGetUserQuery, useUpdateUserConfigsMutation, useSetUserOnlineMutation } = usersApi;
