import { createApi } from '@reduxjs/toolkit/query/react';
import { appBaseQuery } from './app-base-query';

/**
 * The one RTK Query API of the app. Each server domain adds its endpoints from its own file
 * (`<domain>.api.ts`) with injectEndpoints, as Grafana does at scale.
 */
export const TAG_TYPES = [
  'User',
  'Settings',
  'SystemColors',
  'Plan',
  'Queue',
  'Tag',
  'Team',
  'Kanban',
  'Lane',
  'Demand',
  'QuickMessage',
  'BusinessHours',
  'TenantUser',
  'Channel',
  'TagBoard',
  'Contact',
  'ContactImport',
  'Ticket',
  'Message',
  'RatingSettings',
  'Rating',
  'Birthday',
  'ChatFlow',
  'AutoReply',
  'Campaign',
  'Group',
  'GroupRule',
  'BulkSend',
  'ChannelTemplates',
  'Branding',
  'Notification',
  'SentNotification',
  'PlatformMail',
  'PendingSignup',
  'SignupSettings',
  'Invoice',
  'PaymentConfig',
  'Licence',
  'AdminTenant',
  'JobQueue',
  'PlatformUpdate',
  'TerminalAudit',
  'Task',
  'TaskComment',
  'TenantApiToken',
  'ChatConversation',
  'ChatHistory',
  'ChatUnread',
] as const;

export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: appBaseQuery,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});
