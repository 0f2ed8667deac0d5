import type { CreatePlanInput, PlanDto, PublicPlan, UpdatePlanInput } from '@shared/schemas/plans';
import { baseApi } from './base.api';

export type { PlanDto, PublicPlan };

export const plansApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listPublicPlans: build.query<PublicPlan[], void>({
      query: () => '/plans/listpublic',
      providesTags: ['Plan'],
      extraOptions: { anonymous: true },
    }),
    /** Every plan (the platform super administrator's /planos). */
    listPlans: build.query<PlanDto[], void>({
      query: () => '/plans/list',
      providesTags: ['Plan'],
    }),
    createPlan: build.mutation<PlanDto, CreatePlanInput>({
      query: (body) => ({ url: '/plans', method: 'POST', body }),
      invalidatesTags: ['Plan'],
    }),
    updatePlan: build.mutation<PlanDto, { id: number; body: UpdatePlanInput }>({
      query: ({ id, body }) => ({ url: `/plans/${id}`, method: 'PUT', body }),
      // Tenants following the plan take its limits.
      invalidatesTags: ['Plan', 'AdminTenant'],
    }),
    deletePlan: build.mutation<void, number>({
      query: (id) => ({ url: `/plans/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Plan'],
    }),
  }),
});

export const { useListPublicPlansQuery, useListPlansQuery, useCreatePlanMutation, useUpdatePlanMutation, useDeletePlanMutation } = plansApi;
