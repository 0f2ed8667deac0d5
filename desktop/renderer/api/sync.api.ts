import type { SyncResponse } from '@shared/events';
import { baseApi } from './base.api';

/** Replay of the domain events missed while the socket was away (GET /sync?since=<seq>). */
export const syncApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getEventsSince: build.query<SyncResponse, number>({
      query: (since) => ({ url: '/sync', params: { since } }),
      // Each replay must reach the server, never a cached answer.
      keepUnusedDataFor: 0,
      extraOptions: { background: true },
    }),
  }),
});
