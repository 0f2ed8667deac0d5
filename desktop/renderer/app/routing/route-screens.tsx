import type { ComponentType, ReactElement } from 'react';
import { preloadable } from '../lazy/preloadable';
import { ContactsRoute } from '../../features/contacts/contacts-route';
import { REPORT_IDS } from '@shared/schemas/reports';

/**
 * The built screen of each route id of the route table. A route missing here still renders the
 * "under construction" page, so adding a screen is one line in this map.
 *
 * Every screen is its own chunk (issue #13, start-up): the main script holds the shell (router,
 * guards, menus, store, realtime) and a screen's code arrives when its route is first opened, so
 * an agent's console does not wait for the dashboard's charts or the settings forms. Declare a
 * screen with `lazyScreen(() => import('...'), (m) => m.Page)`, never with a static import.
 * main.tsx asks for the chunk of the route being opened while the translations load
 * (`preloadRouteScreen`), so the first screen does not pay one more round trip.
 */

type AnyComponent = ComponentType<any>;
const PRELOADS = new WeakMap<object, () => Promise<unknown>>();

/** A screen's component, split into its own chunk; preloaded screens render without suspending (app/lazy/preloadable.tsx). */
function lazyScreen<M>(load: () => Promise<M>, pick: (module: M) => AnyComponent): AnyComponent {
  const { Component, preload } = preloadable(load, pick);
  PRELOADS.set(Component, preload);
  return Component;
}

const TenantPaymentsPage = lazyScreen(
  () => import('../../features/payments/tenant-payments-page'),
  (m) => m.TenantPaymentsPage,
);
const SubscriptionPage = lazyScreen(
  () => import('../../features/payments/subscription-page'),
  (m) => m.SubscriptionPage,
);
const BlockedSettingsPage = lazyScreen(
  () => import('../../features/payments/blocked-settings-page'),
  (m) => m.BlockedSettingsPage,
);
const AttendancePage = lazyScreen(
  () => import('../../features/attendance/attendance-page'),
  (m) => m.AttendancePage,
);
const BusinessHoursPage = lazyScreen(
  () => import('../../features/business-hours/business-hours-page'),
  (m) => m.BusinessHoursPage,
);
const ChatFlowsPage = lazyScreen(
  () => import('../../features/chatflow/chatflows-page'),
  (m) => m.ChatFlowsPage,
);
// The graph editor (@xyflow/react) is its own chunk, fetched only when the builder opens.
const ChatFlowBuilderPage = lazyScreen(
  () => import('../../features/chatflow/chatflow-builder-page'),
  (m) => m.ChatFlowBuilderPage,
);
const TenantsPage = lazyScreen(
  () => import('../../features/platform-tenants/tenants-page'),
  (m) => m.TenantsPage,
);
const TenantUsersPage = lazyScreen(
  () => import('../../features/platform-tenants/tenant-users-page'),
  (m) => m.TenantUsersPage,
);
const PlansPage = lazyScreen(
  () => import('../../features/plans/plans-page'),
  (m) => m.PlansPage,
);
const ChannelsPage = lazyScreen(
  () => import('../../features/channels/channels-page'),
  (m) => m.ChannelsPage,
);
const DashboardPage = lazyScreen(
  () => {
    // The charts (and ECharts, the largest chunk) are fetched beside the page instead of after
    // its first render: the dashboard's lazy import of them then finds them loaded or on the way.
    void import('../../features/dashboard/charts/dashboard-charts').catch(() => undefined);
    return import('../../features/dashboard/dashboard-page');
  },
  (m) => m.DashboardPage,
);
const DemandsPage = lazyScreen(
  () => import('../../features/demands/demands-page'),
  (m) => m.DemandsPage,
);
const KanbansPage = lazyScreen(
  () => import('../../features/kanban/kanbans-page'),
  (m) => m.KanbansPage,
);
const LanesPage = lazyScreen(
  () => import('../../features/kanban/lanes-page'),
  (m) => m.LanesPage,
);
const TagsBoardPage = lazyScreen(
  () => import('../../features/kanban/tags-board-page'),
  (m) => m.TagsBoardPage,
);
const QueuesPage = lazyScreen(
  () => import('../../features/queues/queues-page'),
  (m) => m.QueuesPage,
);
const QuickMessagesPage = lazyScreen(
  () => import('../../features/quick-messages/quick-messages-page'),
  (m) => m.QuickMessagesPage,
);
const GeneralSettingsPage = lazyScreen(
  () => import('../../features/settings/general-settings-page'),
  (m) => m.GeneralSettingsPage,
);
const SchedulesPage = lazyScreen(
  () => import('../../features/schedules/schedules-page'),
  (m) => m.SchedulesPage,
);
const InternalChatPage = lazyScreen(
  () => import('../../features/internal-chat/internal-chat-page'),
  (m) => m.InternalChatPage,
);
const TasksPage = lazyScreen(
  () => import('../../features/tasks/tasks-page'),
  (m) => m.TasksPage,
);
const TagsPage = lazyScreen(
  () => import('../../features/tags/tags-page'),
  (m) => m.TagsPage,
);
const TeamsPage = lazyScreen(
  () => import('../../features/teams/teams-page'),
  (m) => m.TeamsPage,
);
const TicketRecordsPage = lazyScreen(
  () => import('../../features/ticket-records/ticket-records-page'),
  (m) => m.TicketRecordsPage,
);
const TicketPanelPage = lazyScreen(
  () => import('../../features/ticket-panel/ticket-panel-page'),
  (m) => m.TicketPanelPage,
);
const BirthdaysPage = lazyScreen(
  () => import('../../features/automatic-messages/birthdays-page'),
  (m) => m.BirthdaysPage,
);
const FarewellPage = lazyScreen(
  () => import('../../features/automatic-messages/farewell-page'),
  (m) => m.FarewellPage,
);
const RatingsListPage = lazyScreen(
  () => import('../../features/ratings/ratings-list-page'),
  (m) => m.RatingsListPage,
);
const PlatformMailPage = lazyScreen(
  () => import('../../features/platform-mail/platform-mail-page'),
  (m) => m.PlatformMailPage,
);
const RatingSettingsPage = lazyScreen(
  () => import('../../features/ratings/rating-settings-page'),
  (m) => m.RatingSettingsPage,
);
const UsersPage = lazyScreen(
  () => import('../../features/users/users-page'),
  (m) => m.UsersPage,
);

// The report screens: `/relatorios` and its seven children. Each report keys its screen by id,
// so moving from one report to another starts a fresh form. (They were once kept out of the
// splitting because a split moved zod ahead of its eval-free configuration; the zod chunk now
// carries that configuration itself, vite.config.ts.)
const ReportsIndexPage = lazyScreen(
  () => import('../../features/reports/reports-index-page'),
  (m) => m.ReportsIndexPage,
);
const ReportPage = lazyScreen(
  () => import('../../features/reports/report-page'),
  (m) => m.ReportPage,
);

const CampaignsPage = lazyScreen(
  () => import('../../features/campaigns/campaigns-page'),
  (m) => m.CampaignsPage,
);
const CampaignContactsPage = lazyScreen(
  () => import('../../features/campaigns/campaign-contacts-page'),
  (m) => m.CampaignContactsPage,
);
const GroupRulesPage = lazyScreen(
  () => import('../../features/groups/group-rules-page'),
  (m) => m.GroupRulesPage,
);
const MassGroupsPage = lazyScreen(
  () => import('../../features/groups/group-mass-pages'),
  (m) => m.MassGroupsPage,
);
const MassCreateGroupsPage = lazyScreen(
  () => import('../../features/groups/group-mass-pages'),
  (m) => m.MassCreateGroupsPage,
);
const MassUsersPage = lazyScreen(
  () => import('../../features/groups/group-mass-pages'),
  (m) => m.MassUsersPage,
);

const BulkSendPage = lazyScreen(
  () => import('../../features/bulk/bulk-send-page'),
  (m) => m.BulkSendPage,
);
const AutoReplyPage = lazyScreen(
  () => import('../../features/auto-reply/auto-reply-page'),
  (m) => m.AutoReplyPage,
);
const JobQueuesPage = lazyScreen(
  () => import('../../features/platform-ops/job-queues-page'),
  (m) => m.JobQueuesPage,
);
const InternalDataPage = lazyScreen(
  () => import('../../features/platform-ops/internal-data-page'),
  (m) => m.InternalDataPage,
);
const UpdatePage = lazyScreen(
  () => import('../../features/platform-ops/update-page'),
  (m) => m.UpdatePage,
);
const TerminalPage = lazyScreen(
  () => import('../../features/platform-ops/terminal-page'),
  (m) => m.TerminalPage,
);
const TenantApiPage = lazyScreen(
  () => import('../../features/tenant-api/tenant-api-page'),
  (m) => m.TenantApiPage,
);

const CustomizePage = lazyScreen(
  () => import('../../features/white-label/customize-page'),
  (m) => m.CustomizePage,
);
const NotificationsPage = lazyScreen(
  () => import('../../features/notifications/notifications-page'),
  (m) => m.NotificationsPage,
);

export const ROUTE_SCREENS: Partial<Record<string, () => ReactElement>> = {
  customizar: () => <CustomizePage />,
  notificacao: () => <NotificationsPage />,
  pagamentostenants: () => <TenantPaymentsPage />,
  assinatura: () => <SubscriptionPage />,
  configuracoesbloqueio: () => <BlockedSettingsPage />,
  home: () => <DashboardPage />,
  painelAtendimentos: () => <TicketPanelPage />,
  atendimento: () => <AttendancePage />,
  'atendimento/chats': () => <AttendancePage />,
  'atendimento/chat': () => <AttendancePage />,
  filas: () => <QueuesPage />,
  // The contacts screen is split by its own route wrapper (features/contacts/contacts-route.tsx).
  contatos: () => <ContactsRoute key="contatos" routeId="contatos" mode="manage" />,
  'atendimento/contatos': () => <ContactsRoute key="atendimento/contatos" routeId="atendimento/contatos" mode="chat" />,
  etiquetas: () => <TagsPage />,
  equipes: () => <TeamsPage />,
  'kanban/kanbans': () => <KanbansPage />,
  'kanban/tags': () => <TagsBoardPage />,
  lanes: () => <LanesPage inSettings={false} />,
  'configuracoes/lanes': () => <LanesPage inSettings />,
  'configuracoes/motivos': () => <DemandsPage />,
  'configuracoes/geral': () => <GeneralSettingsPage />,
  mensagensRapidas: () => <QuickMessagesPage />,
  horarioAtendimento: () => <BusinessHoursPage />,
  autoResposta: () => <AutoReplyPage />,
  usuarios: () => <UsersPage />,
  sessoes: () => <ChannelsPage key="sessoes" routeId="sessoes" />,
  sessoestenants: () => <ChannelsPage key="sessoestenants" routeId="sessoestenants" />,
  tenants: () => <TenantsPage />,
  usuariotenants: () => <TenantUsersPage />,
  planos: () => <PlansPage />,
  agendamentos: () => <SchedulesPage />,
  tarefas: () => <TasksPage />,
  chatPrivado: () => <InternalChatPage />,
  campanhas: () => <CampaignsPage />,
  campanhaContatos: () => <CampaignContactsPage />,
  // One screen by kind; massa/sms stays under construction (no SMS provider yet).
  'massa/texto': () => <BulkSendPage key="texto" kind="texto" />,
  'massa/textovariavel': () => <BulkSendPage key="textovariavel" kind="textovariavel" />,
  'massa/template': () => <BulkSendPage key="template" kind="template" />,
  'massa/template-variavel': () => <BulkSendPage key="template-variavel" kind="template-variavel" />,
  aniversarios: () => <BirthdaysPage />,
  fechamento: () => <FarewellPage />,
  'avaliacoes/listar': () => <RatingsListPage />,
  'avaliacoes/configurar': () => <RatingSettingsPage />,
  'configuracoesTenant/smtp-tenant': () => <PlatformMailPage />,
  protocolos: () => <TicketRecordsPage key="protocolos" kind="protocols" />,
  notas: () => <TicketRecordsPage key="notas" kind="notes" />,
  chatFlow: () => <ChatFlowsPage />,
  chatFlowBuilder: () => <ChatFlowBuilderPage />,
  relatorios: () => <ReportsIndexPage />,
  'grupo/banlist': () => <GroupRulesPage key="banlist" kind="banlist" />,
  'grupo/wordlist': () => <GroupRulesPage key="wordlist" kind="wordlist" />,
  'grupo/saudacao': () => <GroupRulesPage key="greetings" kind="greetings" />,
  'grupo/despedida': () => <GroupRulesPage key="farewells" kind="farewells" />,
  'grupo/massagrupos': () => <MassGroupsPage />,
  'grupo/massagrupos2': () => <MassCreateGroupsPage />,
  'grupo/massausuarios': () => <MassUsersPage />,
  tenantsQueue: () => <JobQueuesPage />,
  tenantsPk: () => <InternalDataPage />,
  atualizar: () => <UpdatePage />,
  terminal: () => <TerminalPage />,
  tenantApi: () => <TenantApiPage />,
  ...Object.fromEntries(REPORT_IDS.map((id) => [`relatorios/${id}`, () => <ReportPage key={id} reportId={id} />])),
};

/**
 * Starts loading the chunk of a route's screen (no-op for a route without one, or whose screen is
 * not split). Creating the element runs no component code.
 */
export function preloadRouteScreen(routeId: string): Promise<unknown> {
  const element = ROUTE_SCREENS[routeId]?.();
  const preload = element ? PRELOADS.get(element.type as object) : undefined;
  return preload ? preload().catch(() => undefined) : Promise.resolve();
}
