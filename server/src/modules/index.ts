import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { syncRoutes } from '../realtime/sync.routes';
import { contactsRoutes } from './contacts/contacts.routes';
import { demandsRoutes } from './demands/demands.routes';
import { kanbanRoutes } from './kanban/kanban.routes';
import { queuesRoutes } from './queues/queues.routes';
import { autoRepliesRoutes } from './auto-replies/auto-replies.routes';
import { reportsRoutes } from './reports/reports.routes';
import { quickMessagesRoutes } from './quick-messages/quick-messages.routes';
import { settingsRoutes } from './settings/settings.routes';
import { statisticsRoutes } from './statistics/statistics.routes';
import { tagsRoutes } from './tags/tags.routes';
import { teamsRoutes } from './teams/teams.routes';
import { ticketPanelRoutes } from './ticket-panel/ticket-panel.routes';
import { channelsRoutes } from './channels/channels.routes';
import { messagesRoutes } from './messages/messages.routes';
import { ticketsRoutes } from './tickets/tickets.routes';
import { webhooksRoutes } from './webhooks/webhooks.routes';
import { authRoutes } from './auth/auth.routes';
import { birthdaysRoutes } from './birthdays/birthdays.routes';
import { bulkSendsRoutes } from './bulk/bulk-sends.routes';
import { campaignsRoutes } from './campaigns/campaigns.routes';
import { chatFlowRoutes } from './chatflow/chatflow.routes';
import { chatflowTestRoutes } from './chatflow/chatflow-test.routes';
import { ratingsRoutes } from './ratings/ratings.routes';
import { groupsRoutes } from './groups/groups.routes';
import { healthRoutes } from './health/health.routes';
import { plansRoutes } from './plans/plans.routes';
import { platformMailRoutes } from './platform-mail/platform-mail.routes';
import { signupRoutes } from './signup/signup.routes';
import { paymentsRoutes } from './payments/payments.routes';
import { licenceRoutes } from './licence/licence.routes';
import { platformOpsRoutes } from './platform-ops/platform-ops.routes';
import { tenantApiRoutes } from './tenant-api/tenant-api.routes';
import { tenantSettingsRoutes } from './tenants/tenant-settings.routes';
import { usersRoutes } from './users/users.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { whiteLabelRoutes } from './white-label/white-label.routes';
import { adminTenantsRoutes } from './admin-tenants/admin-tenants.routes';
import { tasksRoutes } from './tasks/tasks.routes';
import { internalChatRoutes } from './internal-chat/internal-chat.routes';

/**
 * Every module's router, in one list. A module adds itself here and nowhere else.
 */
export function moduleRouters(deps: AppDeps): Router[] {
  return [
    healthRoutes(deps), authRoutes(deps), syncRoutes(deps), usersRoutes(deps), tenantSettingsRoutes(deps), plansRoutes(deps),
    contactsRoutes(deps),
    queuesRoutes(deps),
    autoRepliesRoutes(deps),
    tagsRoutes(deps),
    teamsRoutes(deps),
    kanbanRoutes(deps),
    demandsRoutes(deps),
    quickMessagesRoutes(deps),
    settingsRoutes(deps),
    ticketsRoutes(deps),
    ticketPanelRoutes(deps),
    messagesRoutes(deps),
    channelsRoutes(deps),
    statisticsRoutes(deps),
    webhooksRoutes(deps),
    reportsRoutes(deps),
    birthdaysRoutes(deps),
    ratingsRoutes(deps),
    chatFlowRoutes(deps),
    chatflowTestRoutes(deps),
    campaignsRoutes(deps),
    groupsRoutes(deps),
    bulkSendsRoutes(deps),
    whiteLabelRoutes(deps),
    notificationsRoutes(deps),
    signupRoutes(deps),
    platformMailRoutes(deps),
    paymentsRoutes(deps),
    licenceRoutes(deps),
    adminTenantsRoutes(deps),
    platformOpsRoutes(deps),
    tenantApiRoutes(deps),
    tasksRoutes(deps),
    internalChatRoutes(deps),
  ];
}
