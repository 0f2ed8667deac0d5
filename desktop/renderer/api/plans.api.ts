import { baseApi } from './base.api';

export interface PublicPlan {
  id: number;
  name: string;
  value: number;
  maxUsers: number;
  maxConnections: number;
  trial: boolean;
  trialDays: number;
}

export const plansApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listPublicPlans: build.query<PublicPlan[], void>({
      query: () => '/plans/listpublic',
      providesTags: ['Plan'],
      extraOptions: { anonymous: true },
    }),
  }),
});

export const { useListPublicPlansQuery } = plansApi;
