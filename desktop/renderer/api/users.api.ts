import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { Profile } from '@shared/profiles';
import type { DesktopPurgeResponse, UserListResponse, UserProfile as TenantUser } from '@shared/schemas/users';
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

export type { TenantUser, UserListResponse };

export interface UserListArgs {
  searchParam?: string;
  pageNumber: number;
  pageSize: number;
}

/** POST /users body; PUT /users/{id} takes any subset (an empty password keeps the old one). */
export interface UserBody {
  name: string;
  email: string;
  password?: string;
  profile: Profile;
  queues: number[];
  allowedConnections: number[];
  blockVoice: boolean;
}

/** A channel as the user form offers it for "allowed connections". */
export interface ConnectionOption {
  id: number;
  name: string;
  type?: string;
}

/** GET /users/ pages at most 100; pickers (team members) read page after page up to this many. */
const PICKER_PAGE_SIZE = 100;
const PICKER_MAX_PAGES = 20;

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

    /** The users screen: one page of GET /users/ (name or e-mail contains searchParam). */
    listTenantUsers: build.query<UserListResponse, UserListArgs>({
      query: ({ searchParam, pageNumber, pageSize }) => ({
        url: '/users/',
        params: { pageNumber, pageSize, ...(searchParam?.trim() ? { searchParam: searchParam.trim() } : {}) },
      }),
      providesTags: ['TenantUser'],
    }),
    /** Every user of the tenant, for pickers (team members), in name order. */
    listAllTenantUsers: build.query<TenantUser[], void>({
      async queryFn(_arg, _api, _extraOptions, baseQuery) {
        const users: TenantUser[] = [];
        for (let pageNumber = 1; pageNumber <= PICKER_MAX_PAGES; pageNumber += 1) {
          const result = await baseQuery({ url: '/users/', params: { pageNumber, pageSize: PICKER_PAGE_SIZE } });
          if (result.error) return { error: result.error };
          const page = result.data as UserListResponse;
          users.push(...page.users);
          if (!page.hasMore) break;
        }
        return { data: users };
      },
      providesTags: ['TenantUser'],
    }),
    createUser: build.mutation<TenantUser, UserBody>({
      query: (body) => ({ url: '/users', method: 'POST', body }),
      invalidatesTags: ['TenantUser', 'Team'],
    }),
    updateUser: build.mutation<TenantUser, { id: number; body: Partial<UserBody> }>({
      query: ({ id, body }) => ({ url: `/users/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => ['TenantUser', 'Team', { type: 'User', id }],
    }),
    deleteUser: build.mutation<void, number>({
      query: (id) => ({ url: `/users/${id}`, method: 'DELETE' }),
      invalidatesTags: ['TenantUser', 'Team'],
    }),
    /** POST /users/{id}/desktop-purge: the user's desktop consoles wipe their local cache (issue #15). */
    purgeUserDesktop: build.mutation<DesktopPurgeResponse, number>({
      query: (id) => ({ url: `/users/${id}/desktop-purge`, method: 'POST', body: {} }),
    }),
    /**
     * The tenant's channels for "allowed connections" (GET /whatsapp/). Quiet on failure: the
     * form says the list is unavailable and keeps the user's current connections untouched.
     */
    listConnectionOptions: build.query<ConnectionOption[], void>({
      query: () => '/whatsapp/',
      transformResponse: (body: unknown) => {
        const rows = Array.isArray(body)
          ? body
          : Array.isArray((body as { whatsapps?: unknown })?.whatsapps)
            ? (body as { whatsapps: unknown[] }).whatsapps
            : [];
        return rows
          .filter((row): row is ConnectionOption => typeof (row as ConnectionOption)?.id === 'number')
          .map((row) => ({ id: row.id, name: String(row.name ?? row.id), type: row.type }));
      },
      providesTags: ['Channel'],
      extraOptions: { background: true },
    }),
  }),
});

export const {
  useGetUserQuery,
  useUpdateUserConfigsMutation,
  useSetUserOnlineMutation,
  useListTenantUsersQuery,
  useListAllTenantUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  usePurgeUserDesktopMutation,
  useListConnectionOptionsQuery,
} = usersApi;

/**
 * A user's change (user:update, user:status) applied to every cached page of the users list and
 * to the pickers' full list, so names, profiles and presence follow without refetching.
 */
export function patchUserInLists(
  dispatch: ThunkDispatch<any, unknown, UnknownAction>,
  state: Parameters<typeof usersApi.util.selectCachedArgsForQuery>[0],
  userId: number,
  patch: Partial<TenantUser>,
): void {
  for (const args of usersApi.util.selectCachedArgsForQuery(state, 'listTenantUsers')) {
    dispatch(
      usersApi.util.updateQueryData('listTenantUsers', args, (draft) => {
        const user = draft.users.find((candidate) => candidate.id === userId);
        if (user) Object.assign(user, patch);
      }),
    );
  }
  if (usersApi.util.selectCachedArgsForQuery(state, 'listAllTenantUsers').length > 0) {
    dispatch(
      usersApi.util.updateQueryData('listAllTenantUsers', undefined, (draft) => {
        const user = draft.find((candidate) => candidate.id === userId);
        if (user) Object.assign(user, patch);
      }),
    );
  }
}
