import { MESSAGE_MEDIA_FIELD, type MessageDto, type ScheduleListStatus, type ScheduledMessagesResponse } from '@shared/schemas/messages';
import { baseApi } from './base.api';

/**
 * Scheduled messages of the /agendamentos screen (docs/api.md, Messages): GET /scheduleMessages/,
 * POST /messagesSchedule/ (JSON, or multipart with one file), PATCH /messages/{id} while
 * scheduled, DELETE /messagesSchedule/{id} (cancel).
 */
export interface ScheduleListArgs {
  pageNumber: number;
  status: ScheduleListStatus;
  contactId?: number;
}

export interface ScheduleFields {
  body: string;
  /** ISO 8601 with offset. */
  scheduleDate: string;
  recurrenceDays: number;
  repetitions: number;
}

export interface CreateScheduleBody extends ScheduleFields {
  contactId: number;
  clientId: string;
  file?: File | null;
}

/** One tag for the whole list: any change refreshes the page on screen. */
const LIST_TAG = { type: 'Message' as const, id: 'SCHEDULES' };

/** JSON, or multipart when a file goes along (numbers as texts, read by the shared schema). */
export function scheduleRequestBody({ file, ...fields }: CreateScheduleBody): FormData | Omit<CreateScheduleBody, 'file'> {
  if (!file) return fields;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  form.append(MESSAGE_MEDIA_FIELD, file, file.name);
  return form;
}

export const schedulesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listSchedules: build.query<ScheduledMessagesResponse, ScheduleListArgs>({
      query: ({ pageNumber, status, contactId }) => ({
        url: '/scheduleMessages/',
        params: { pageNumber, status, ...(contactId ? { contactId } : {}) },
      }),
      providesTags: [LIST_TAG],
    }),
    createSchedule: build.mutation<MessageDto, CreateScheduleBody>({
      query: (body) => ({ url: '/messagesSchedule/', method: 'POST', body: scheduleRequestBody(body) }),
      invalidatesTags: [LIST_TAG],
    }),
    updateSchedule: build.mutation<MessageDto, { id: number; body: Partial<ScheduleFields> }>({
      query: ({ id, body }) => ({ url: `/messages/${id}`, method: 'PATCH', body }),
      invalidatesTags: [LIST_TAG],
    }),
    cancelSchedule: build.mutation<MessageDto, number>({
      query: (id) => ({ url: `/messagesSchedule/${id}`, method: 'DELETE' }),
      invalidatesTags: [LIST_TAG],
    }),
  }),
});

export const { useListSchedulesQuery, useCreateScheduleMutation, useUpdateScheduleMutation, useCancelScheduleMutation } = schedulesApi;
