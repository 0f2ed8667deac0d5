import type { Team } from '@shared/schemas/teams';
import { baseApi } from './base.api';
import { byName, type CatalogListRules } from './catalog-cache';

/** Teams (equipes): GET/POST /teams, PUT/DELETE /teams/{teamId}; `users` replaces the members. */
export type { Team };

export interface TeamBody {
  name: string;
  active: boolean;
  users: number[];
}

export const teamListRules: CatalogListRules<Team> = { key: 'team', compare: byName };

export const teamsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listTeams: build.query<Team[], void>({
      query: () => '/teams',
      providesTags: ['Team'],
    }),
    createTeam: build.mutation<Team, TeamBody>({
      query: (body) => ({ url: '/teams', method: 'POST', body }),
      invalidatesTags: ['Team'],
    }),
    updateTeam: build.mutation<Team, { id: number; body: Partial<TeamBody> }>({
      query: ({ id, body }) => ({ url: `/teams/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Team'],
    }),
    deleteTeam: build.mutation<void, number>({
      query: (id) => ({ url: `/teams/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Team'],
    }),
  }),
});

export const { useListTeamsQuery, useCreateTeamMutation, useUpdateTeamMutation, useDeleteTeamMutation } = teamsApi;
