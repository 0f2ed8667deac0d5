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

const AutoReplyPage = lazyScreen(
  () => import('../../features/auto-reply/auto-reply-page'),
  (m) => m.AutoReplyPage,
);

export const ROUTE_SCREENS: Partial<Record<string, () => ReactElement>> = {
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
  agendamentos: () => <SchedulesPage />,
  aniversarios: () => <BirthdaysPage />,
  fechamento: () => <FarewellPage />,
  'avaliacoes/listar': () => <RatingsListPage />,
  'avaliacoes/configurar': () => <RatingSettingsPage />,
  protocolos: () => <TicketRecordsPage key="protocolos" kind="protocols" />,
  notas: () => <TicketRecordsPage key="notas" kind="notes" />,
  chatFlow: () => <ChatFlowsPage />,
  chatFlowBuilder: () => <ChatFlowBuilderPage />,
  relatorios: () => <ReportsIndexPage />,
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
