import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type { ReportExportFormat, ReportId, ReportPage } from '@shared/schemas/reports';
import { baseApi } from './base.api';
import { blobOrErrorBody, fileNameFromContentDisposition, saveBlobAs } from './file-download';

/**
 * Reports (docs/api.md, Reports; contract in shared/schemas/reports.ts):
 *   GET /reports/{reportId}?<filters>&pageNumber&pageSize   -> ReportPage
 *   GET /reports/{reportId}/export?format=csv|xlsx|pdf&<filters> -> the file, streamed
 * The filters are the output of the report's shared schema (days as yyyy-MM-dd, id lists).
 */
export type { ReportPage };

/** A report's filters after its schema: days, id and code lists, a few texts. */
export type ReportFilterValues = Record<string, unknown>;

export interface ReportPageArgs {
  reportId: ReportId;
  filters: ReportFilterValues;
  pageNumber: number;
  pageSize: number;
}

export interface ReportExportArgs {
  reportId: ReportId;
  filters: ReportFilterValues;
  format: ReportExportFormat;
}

export interface SavedReportFile {
  fileName: string;
  size: number;
}

/**
 * The query string of the filters: lists as `1,2` (the spelling every list schema reads), empty
 * lists and texts left out, so "no choice" means "every".
 */
export function reportFilterParams(filters: ReportFilterValues): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params[key] = value.map(String).join(',');
    } else if (typeof value === 'string') {
      if (value.trim() !== '') params[key] = value.trim();
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      params[key] = String(value);
    }
  }
  return params;
}

/** An export of every matching row streams for a while on a large tenant (issue #13: 100,000 rows). */
const EXPORT_TIMEOUT_MS = 5 * 60_000;

export const reportsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getReport: build.query<ReportPage, ReportPageArgs>({
      query: ({ reportId, filters, pageNumber, pageSize }) => ({
        url: `/reports/${encodeURIComponent(reportId)}`,
        params: { ...reportFilterParams(filters), pageNumber, pageSize },
      }),
      // A report is a snapshot the user asked for: kept briefly, refetched when asked again.
      keepUnusedDataFor: 30,
    }),
    /**
     * Fetches the file with the session's token and offers it as a download; only its name and
     * size enter the store. Quiet (`background`): no full-screen overlay while it streams (the
     * button shows the progress) and no generic toast, since the screen says which export failed.
     */
    exportReport: build.mutation<SavedReportFile, ReportExportArgs>({
      async queryFn({ reportId, filters, format }, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({
          url: `/reports/${encodeURIComponent(reportId)}/export`,
          params: { ...reportFilterParams(filters), format },
          responseHandler: blobOrErrorBody,
          timeout: EXPORT_TIMEOUT_MS,
        });
        if (result.error) return { error: result.error as FetchBaseQueryError };
        const blob = result.data as Blob;
        const header = (result.meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('content-disposition');
        const fileName = fileNameFromContentDisposition(header) ?? `${reportId}.${format}`;
        saveBlobAs(blob, fileName);
        return { data: { fileName, size: blob.size } };
      },
      extraOptions: { background: true },
    }),
  }),
});

export const { useGetReportQuery, useExportReportMutation } = reportsApi;
