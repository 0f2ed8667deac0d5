import { Foundation1763700000000 } from './1763700000000-foundation';
import { CrmBase1763710000000 } from './1763710000000-crm-base';
import { ContactsImportState1763720000000 } from './1763720000000-contacts-import-state';
import { TicketsMessagesChannels1763740000000 } from './1763740000000-tickets-messages-channels';
import { ChannelSessionReason1763741000000 } from './1763741000000-channel-session-reason';
import { EarlyStatuses1763745000000 } from './1763745000000-early-statuses';
import { ChannelAuthState1763750000000 } from './1763750000000-channel-auth-state';
import { ContactSearch1763760000000 } from './1763760000000-contact-search';
import { PeriodicRuns1763770000000 } from './1763770000000-periodic-runs';
import { MessageSendClaim1763771000000 } from './1763771000000-message-send-claim';
import { TicketMetrics1763780000000 } from './1763780000000-ticket-metrics';
import { ReportIndexes1763785000000 } from './1763785000000-report-indexes';
import { ScheduleList1763790000000 } from './1763790000000-schedule-list';
import { BirthdaysRatings1763814000000 } from './1763814000000-birthdays-ratings';
import { TicketRecordsIndexes1763820000000 } from './1763820000000-ticket-records-indexes';
import { ChatFlows1763830000000 } from './1763830000000-chat-flows';
import { AutoReplies1763840000000 } from './1763840000000-auto-replies';
import { BusinessHoursAutomation1763850000000 } from './1763850000000-business-hours-automation';
import { ReportMedianIndex1763860000000 } from './1763860000000-report-median-index';
import { MetricDailySlots1763870000000 } from './1763870000000-metric-daily-slots';
import { MessageTemplates1763880000000 } from './1763880000000-message-templates';
import { Campaigns1763890000000 } from './1763890000000-campaigns';
import { WhatsappGroups1763895000000 } from './1763895000000-whatsapp-groups';
import { BulkSends1763896000000 } from './1763896000000-bulk-sends';
import { TemplateVariableParts1763897000000 } from './1763897000000-template-variable-parts';
import { TenantPayments1763897100000 } from './1763897100000-tenant-payments';
import { SignupsPlatformMail1763897300000 } from './1763897300000-signups-platform-mail';
import { PlatformOps1763897400000 } from './1763897400000-platform-ops';
import { BrandingNotifications1763897600000 } from './1763897600000-branding-notifications';
import { TenantAdministration1763905000000 } from './1763905000000-tenant-administration';
import { Tasks1763906000000 } from './1763906000000-tasks';
import { InternalChat1763907000000 } from './1763907000000-internal-chat';
import { UserPresence1763908000000 } from './1763908000000-user-presence';

/** Every migration, in order. Listed explicitly so tsx, Vitest and bundles load the same set. */
export const migrations = [
  Foundation1763700000000,
  CrmBase1763710000000,
  ContactsImportState1763720000000,
  TicketsMessagesChannels1763740000000,
  ChannelSessionReason1763741000000,
  EarlyStatuses1763745000000,
  ChannelAuthState1763750000000,
  ContactSearch1763760000000,
  PeriodicRuns1763770000000,
  MessageSendClaim1763771000000,
  TicketMetrics1763780000000,
  ReportIndexes1763785000000,
  ScheduleList1763790000000,
  BirthdaysRatings1763814000000,
  TicketRecordsIndexes1763820000000,
  ChatFlows1763830000000,
  AutoReplies1763840000000,
  BusinessHoursAutomation1763850000000,
  ReportMedianIndex1763860000000,
  MetricDailySlots1763870000000,
  MessageTemplates1763880000000,
  Campaigns1763890000000,
  WhatsappGroups1763895000000,
  BulkSends1763896000000,
  TemplateVariableParts1763897000000,
  TenantPayments1763897100000,
  SignupsPlatformMail1763897300000,
  PlatformOps1763897400000,
  BrandingNotifications1763897600000,
  TenantAdministration1763905000000,
  Tasks1763906000000,
  InternalChat1763907000000,
  UserPresence1763908000000,
];
