import type { ChannelBirthdayInput, ChannelFarewellInput, UpcomingBirthdaysAnswer } from '@shared/schemas/birthdays';
import type { ChannelDto } from '@shared/schemas/channels';
import type { SendBirthdayResponse } from '@shared/schemas/messages';
import { baseApi } from './base.api';

/**
 * Birthday and farewell messages (issue #14, docs/api.md): each channel's messages, written by
 * supervisors and admins (PUT /whatsapp/{id}/birthday, /farewell), the upcoming birthdays
 * (GET /birthdays/upcoming) and "send today's now" (POST /messages/sendBirthday).
 */
export type { UpcomingBirthdaysAnswer };

export interface UpcomingBirthdaysArgs {
  days: number;
  pageNumber: number;
  pageSize: number;
}

export const birthdaysApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listUpcomingBirthdays: build.query<UpcomingBirthdaysAnswer, UpcomingBirthdaysArgs>({
      query: (params) => ({ url: '/birthdays/upcoming', params }),
      providesTags: ['Birthday'],
    }),
    updateChannelBirthday: build.mutation<ChannelDto, { id: number; body: ChannelBirthdayInput }>({
      query: ({ id, body }) => ({ url: `/whatsapp/${id}/birthday`, method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Channel', 'Birthday']),
    }),
    updateChannelFarewell: build.mutation<ChannelDto, { id: number; body: ChannelFarewellInput }>({
      query: ({ id, body }) => ({ url: `/whatsapp/${id}/farewell`, method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Channel']),
    }),
    sendTodaysBirthdays: build.mutation<SendBirthdayResponse, void>({
      query: () => ({ url: '/messages/sendBirthday', method: 'POST', body: {} }),
      invalidatesTags: (_result, error) => (error ? [] : ['Birthday']),
    }),
  }),
});

export const {
  useListUpcomingBirthdaysQuery,
  useUpdateChannelBirthdayMutation,
  useUpdateChannelFarewellMutation,
  useSendTodaysBirthdaysMutation,
} = birthdaysApi;
