import type {
  NotificationInboxDto,
  NotificationTargetTenantDto,
  NotificationUnreadDto,
  SendNotificationInput,
  SentNotificationDto,
  SentNotificationPageDto,
} from '@shared/schemas/notifications';
import { baseApi } from './base.api';

export type { NotificationInboxDto, SentNotificationDto, NotificationTargetTenantDto };

/** The bell (every signed-in user) and /notificacao (the super administrator). */
export const notificationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getMyNotifications: build.query<NotificationInboxDto, void>({
      query: () => '/notifications?limit=30',
      providesTags: ['Notification'],
      extraOptions: { background: true },
    }),
    markNotificationRead: build.mutation<NotificationUnreadDto, number>({
      query: (id) => ({ url: `/notifications/${id}/read`, method: 'PUT' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          notificationsApi.util.updateQueryData('getMyNotifications', undefined, (draft) => {
            draft.unreadCount = data.unreadCount;
            for (const n of draft.notifications) if (n.id === id) n.read = true;
          }),
        );
      },
    }),
    markAllNotificationsRead: build.mutation<NotificationUnreadDto, void>({
      query: () => ({ url: '/notifications/read-all', method: 'PUT' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          notificationsApi.util.updateQueryData('getMyNotifications', undefined, (draft) => {
            draft.unreadCount = data.unreadCount;
            for (const n of draft.notifications) n.read = true;
          }),
        );
      },
    }),
    listSentNotifications: build.query<SentNotificationPageDto, void>({
      query: () => '/admin/notifications?limit=100',
      providesTags: ['SentNotification'],
    }),
    listNotificationTenants: build.query<NotificationTargetTenantDto[], void>({
      query: () => '/admin/notifications/tenants',
    }),
    sendNotification: build.mutation<SentNotificationDto, SendNotificationInput>({
      query: (body) => ({ url: '/admin/notifications', method: 'POST', body }),
      invalidatesTags: ['SentNotification'],
    }),
    deleteNotification: build.mutation<void, number>({
      query: (id) => ({ url: `/admin/notifications/${id}`, method: 'DELETE' }),
      invalidatesTags: ['SentNotification'],
    }),
  }),
});

export const {
  useGetMyNotificationsQuery,
  useMarkNotificationReadMutation,
  useMarkAllNotificationsReadMutation,
  useListSentNotificationsQuery,
  useListNotificationTenantsQuery,
  useSendNotificationMutation,
  useDeleteNotificationMutation,
} = notificationsApi;
