import type { Demand } from '@shared/schemas/demands';
import { baseApi } from './base.api';
import { byName, type CatalogListRules } from './catalog-cache';

/** Demands (motivos): GET/POST /demands, PUT/DELETE /demands/{demandId}. */
export type { Demand };

export interface DemandBody {
  name: string;
  active: boolean;
}

export const demandListRules: CatalogListRules<Demand> = { key: 'demand', compare: byName };

export const demandsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listDemands: build.query<Demand[], void>({
      query: () => '/demands',
      providesTags: ['Demand'],
    }),
    createDemand: build.mutation<Demand, DemandBody>({
      query: (body) => ({ url: '/demands', method: 'POST', body }),
      invalidatesTags: ['Demand'],
    }),
    updateDemand: build.mutation<Demand, { id: number; body: Partial<DemandBody> }>({
      query: ({ id, body }) => ({ url: `/demands/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Demand'],
    }),
    deleteDemand: build.mutation<void, number>({
      query: (id) => ({ url: `/demands/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Demand'],
    }),
  }),
});

export const { useListDemandsQuery, useCreateDemandMutation, useUpdateDemandMutation, useDeleteDemandMutation } = demandsApi;
