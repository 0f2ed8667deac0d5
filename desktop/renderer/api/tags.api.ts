import type { Tag } from '@shared/schemas/tags';
import { baseApi } from './base.api';
import { byName, type CatalogListRules } from './catalog-cache';

/** Tags (etiquetas): GET/POST /tags, PUT/DELETE /tags/{tagId} (docs/api.md, CRM catalogues). */
export type { Tag };

export interface TagBody {
  name: string;
  color: string;
  active: boolean;
}

export const tagListRules: CatalogListRules<Tag> = { key: 'tag', compare: byName };

export const tagsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listTags: build.query<Tag[], void>({
      query: () => '/tags',
      providesTags: ['Tag'],
    }),
    createTag: build.mutation<Tag, TagBody>({
      query: (body) => ({ url: '/tags', method: 'POST', body }),
      invalidatesTags: ['Tag'],
    }),
    updateTag: build.mutation<Tag, { id: number; body: Partial<TagBody> }>({
      query: ({ id, body }) => ({ url: `/tags/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Tag', 'TagBoard'],
    }),
    deleteTag: build.mutation<void, number>({
      query: (id) => ({ url: `/tags/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Tag', 'TagBoard'],
    }),
  }),
});

export const { useListTagsQuery, useCreateTagMutation, useUpdateTagMutation, useDeleteTagMutation } = tagsApi;
