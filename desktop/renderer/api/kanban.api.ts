import type { ContactListResponse } from '@shared/schemas/contacts';
import type { Kanban, Lane } from '@shared/schemas/kanban';
import { baseApi } from './base.api';
import { byPosition, reorderByIds, type CatalogListRules } from './catalog-cache';

/**
 * Kanban columns (GET/POST /kanban, PUT/DELETE /kanban/{id}, PUT /kanban/reorder) and lanes (the
 * same under /lanes), both ordered by position; and the contacts of one tag for the tags board.
 */
export type { Kanban, Lane };

export interface KanbanBody {
  name: string;
  color: string;
  active: boolean;
}

export interface LaneBody {
  name: string;
  color: string;
}

export const kanbanListRules: CatalogListRules<Kanban> = { key: 'kanban', compare: byPosition };
export const laneListRules: CatalogListRules<Lane> = { key: 'lane', compare: byPosition };

/** How many contacts a tags-board column shows; the rest is counted, not listed. */
export const TAG_BOARD_COLUMN_SIZE = 50;

export const kanbanApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listKanbans: build.query<Kanban[], void>({
      query: () => '/kanban',
      providesTags: ['Kanban'],
    }),
    createKanban: build.mutation<Kanban, KanbanBody>({
      query: (body) => ({ url: '/kanban', method: 'POST', body }),
      invalidatesTags: ['Kanban'],
    }),
    updateKanban: build.mutation<Kanban, { id: number; body: Partial<KanbanBody> }>({
      query: ({ id, body }) => ({ url: `/kanban/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Kanban'],
    }),
    deleteKanban: build.mutation<void, number>({
      query: (id) => ({ url: `/kanban/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Kanban'],
    }),
    /** The new order shows at once; a refused reorder puts the old one back. */
    reorderKanbans: build.mutation<Kanban[], number[]>({
      query: (ids) => ({ url: '/kanban/reorder', method: 'PUT', body: { ids } }),
      async onQueryStarted(ids, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          kanbanApi.util.updateQueryData('listKanbans', undefined, (draft) => reorderByIds(draft, ids) ?? draft),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(kanbanApi.util.upsertQueryData('listKanbans', undefined, data));
        } catch {
          patch.undo();
        }
      },
    }),

    listLanes: build.query<Lane[], void>({
      query: () => '/lanes',
      providesTags: ['Lane'],
    }),
    createLane: build.mutation<Lane, LaneBody>({
      query: (body) => ({ url: '/lanes', method: 'POST', body }),
      invalidatesTags: ['Lane'],
    }),
    updateLane: build.mutation<Lane, { id: number; body: Partial<LaneBody> }>({
      query: ({ id, body }) => ({ url: `/lanes/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Lane'],
    }),
    deleteLane: build.mutation<void, number>({
      query: (id) => ({ url: `/lanes/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Lane'],
    }),
    reorderLanes: build.mutation<Lane[], number[]>({
      query: (ids) => ({ url: '/lanes/reorder', method: 'PUT', body: { ids } }),
      async onQueryStarted(ids, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          kanbanApi.util.updateQueryData('listLanes', undefined, (draft) => reorderByIds(draft, ids) ?? draft),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(kanbanApi.util.upsertQueryData('listLanes', undefined, data));
        } catch {
          patch.undo();
        }
      },
    }),

    /** First page of the contacts carrying one tag (GET /contacts?tags=<id>). */
    listTagBoardContacts: build.query<ContactListResponse, number>({
      query: (tagId) => ({ url: '/contacts', params: { tags: tagId, pageNumber: 1, pageSize: TAG_BOARD_COLUMN_SIZE } }),
      providesTags: (_result, _error, tagId) => [{ type: 'TagBoard', id: tagId }],
    }),
  }),
});

export const {
  useListKanbansQuery,
  useCreateKanbanMutation,
  useUpdateKanbanMutation,
  useDeleteKanbanMutation,
  useReorderKanbansMutation,
  useListLanesQuery,
  useCreateLaneMutation,
  useUpdateLaneMutation,
  useDeleteLaneMutation,
  useReorderLanesMutation,
  useListTagBoardContactsQuery,
} = kanbanApi;
