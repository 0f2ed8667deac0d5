import type { Queue } from '@shared/schemas/queues';
import type { BusinessHoursDay } from '@shared/schemas/tenant-settings';
import { baseApi } from './base.api';
import { byName, type CatalogListRules } from './catalog-cache';

/** Queues (filas): GET/POST /queue, PUT/DELETE /queue/{queueId} (docs/api.md, CRM catalogues). */
export type { Queue };

export interface QueueBody {
  name: string;
  color: string;
  greetingMessage: string | null;
  active: boolean;
  /** The queue's own week; null: the tenant's business hours apply. */
  businessHours?: BusinessHoursDay[] | null;
}

export const queueListRules: CatalogListRules<Queue> = { key: 'queue', compare: byName };

export const queuesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listQueues: build.query<Queue[], void>({
      query: () => '/queue',
      providesTags: ['Queue'],
    }),
    createQueue: build.mutation<Queue, QueueBody>({
      query: (body) => ({ url: '/queue', method: 'POST', body }),
      invalidatesTags: ['Queue'],
    }),
    updateQueue: build.mutation<Queue, { id: number; body: Partial<QueueBody> }>({
      query: ({ id, body }) => ({ url: `/queue/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Queue'],
    }),
    deleteQueue: build.mutation<void, number>({
      query: (id) => ({ url: `/queue/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Queue'],
    }),
  }),
});

export const { useListQueuesQuery, useCreateQueueMutation, useUpdateQueueMutation, useDeleteQueueMutation } = queuesApi;
