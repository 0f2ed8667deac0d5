import type {
  CleanJobQueueInput,
  FailedJobView,
  InternalDataView,
  JobQueueBoardView,
  PlatformUpdateView,
  TerminalAuditRow,
  TerminalCommand,
  TerminalResultView,
} from '@shared/schemas/platform-ops';
import { UPDATE_FILE_FIELD, UPDATE_SIGNATURE_FIELD } from '@shared/schemas/platform-ops';
import { baseApi } from './base.api';

/** An update package can be large: its upload gets far longer than the usual request timeout. */
const UPDATE_UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

const queuePath = (name: string) => `/platform/queues/${encodeURIComponent(name)}`;

/**
 * The super administrator's platform operations: job queues (/tenantsQueue), internal data
 * (/tenantsPk), update (/atualizar) and terminal (/terminal), under /platform on the server.
 */
export const platformOpsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getJobQueues: build.query<JobQueueBoardView, void>({
      query: () => '/platform/queues',
      providesTags: ['JobQueue'],
      // Polled every 10 s: a failing poll neither toasts nor covers the screen.
      extraOptions: { background: true },
    }),
    getFailedJobs: build.query<FailedJobView[], string>({
      query: (name) => `${queuePath(name)}/failed`,
      providesTags: ['JobQueue'],
    }),
    retryFailedJob: build.mutation<void, { name: string; jobId: string }>({
      query: ({ name, jobId }) => ({ url: `${queuePath(name)}/failed/${encodeURIComponent(jobId)}/retry`, method: 'POST' }),
      invalidatesTags: ['JobQueue'],
    }),
    cleanJobQueue: build.mutation<{ removed: number }, { name: string } & CleanJobQueueInput>({
      query: ({ name, state }) => ({ url: `${queuePath(name)}/clean`, method: 'POST', body: { state } }),
      invalidatesTags: ['JobQueue'],
    }),
    restartJobQueue: build.mutation<{ restartsLeft: number }, string>({
      query: (name) => ({ url: `${queuePath(name)}/restart`, method: 'POST' }),
      invalidatesTags: ['JobQueue'],
    }),
    getInternalData: build.query<InternalDataView, void>({
      query: () => '/platform/internal-data',
    }),
    listUpdates: build.query<PlatformUpdateView[], void>({
      query: () => '/platform/updates',
      providesTags: ['PlatformUpdate'],
    }),
    uploadUpdate: build.mutation<PlatformUpdateView, { file: File; signature: File | null }>({
      query: ({ file, signature }) => {
        const form = new FormData();
        form.append(UPDATE_FILE_FIELD, file, file.name);
        if (signature) form.append(UPDATE_SIGNATURE_FIELD, signature, signature.name);
        return { url: '/platform/updates', method: 'POST', body: form, timeout: UPDATE_UPLOAD_TIMEOUT_MS };
      },
      // A refused package is recorded too: the history reloads either way.
      invalidatesTags: ['PlatformUpdate'],
    }),
    runTerminalCommand: build.mutation<TerminalResultView, TerminalCommand>({
      query: (command) => ({ url: '/platform/terminal', method: 'POST', body: { command } }),
      invalidatesTags: ['TerminalAudit'],
    }),
    getTerminalAudit: build.query<TerminalAuditRow[], void>({
      query: () => '/platform/terminal/audit',
      providesTags: ['TerminalAudit'],
    }),
  }),
});

export const {
  useGetJobQueuesQuery,
  useGetFailedJobsQuery,
  useRetryFailedJobMutation,
  useCleanJobQueueMutation,
  useRestartJobQueueMutation,
  useGetInternalDataQuery,
  useListUpdatesQuery,
  useUploadUpdateMutation,
  useRunTerminalCommandMutation,
  useGetTerminalAuditQuery,
} = platformOpsApi;
