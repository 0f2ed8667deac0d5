import type { BrandingDto, BrandingMediaKind, UpdateBrandingInput } from '@shared/schemas/white-label';
import { baseApi } from './base.api';

export type { BrandingDto, BrandingMediaKind };

/** White-label branding (features/white-label): public read, super-administrator writes. */
export const whiteLabelApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPublicBranding: build.query<BrandingDto, void>({
      query: () => '/publicBranding',
      providesTags: ['Branding'],
      extraOptions: { anonymous: true, background: true },
    }),
    updateBranding: build.mutation<BrandingDto, UpdateBrandingInput>({
      query: (body) => ({ url: '/admin/branding', method: 'PUT', body }),
      invalidatesTags: ['Branding'],
    }),
    uploadBrandingImage: build.mutation<BrandingDto, { kind: BrandingMediaKind; file: File }>({
      query: ({ kind, file }) => {
        const body = new FormData();
        body.append('kind', kind);
        body.append('file', file);
        return { url: '/admin/media-upload', method: 'POST', body };
      },
      invalidatesTags: ['Branding'],
    }),
    removeBrandingImage: build.mutation<BrandingDto, BrandingMediaKind>({
      query: (kind) => ({ url: `/admin/media-upload/${kind}`, method: 'DELETE' }),
      invalidatesTags: ['Branding'],
    }),
    updateSystemColors: build.mutation<Record<string, string>[], Record<string, string>[]>({
      query: (body) => ({ url: '/tenants/systemColors/', method: 'PUT', body }),
      invalidatesTags: ['SystemColors'],
    }),
  }),
});

export const {
  useGetPublicBrandingQuery,
  useUpdateBrandingMutation,
  useUploadBrandingImageMutation,
  useRemoveBrandingImageMutation,
  useUpdateSystemColorsMutation,
} = whiteLabelApi;
