import type { ReactElement } from 'react';
import { AttendancePage } from '../../features/attendance/attendance-page';
import { BusinessHoursPage } from '../../features/business-hours/business-hours-page';
import { ChannelsPage } from '../../features/channels/channels-page';
import { ContactsRoute } from '../../features/contacts/contacts-route';
import { DemandsPage } from '../../features/demands/demands-page';
import { KanbansPage } from '../../features/kanban/kanbans-page';
import { LanesPage } from '../../features/kanban/lanes-page';
import { TagsBoardPage } from '../../features/kanban/tags-board-page';
import { QueuesPage } from '../../features/queues/queues-page';
import { QuickMessagesPage } from '../../features/quick-messages/quick-messages-page';
import { REPORT_SCREENS } from '../../features/reports/report-routes';
import { GeneralSettingsPage } from '../../features/settings/general-settings-page';
import { TagsPage } from '../../features/tags/tags-page';
import { TeamsPage } from '../../features/teams/teams-page';
import { UsersPage } from '../../features/users/users-page';

/**
 * The built screen of each route id of the route table. A route missing here still renders the
 * "under construction" page, so adding a screen is one line in this map.
 */
export const ROUTE_SCREENS: Partial<Record<string, () => ReactElement>> = {
  atendimento: () => <AttendancePage />,
  'atendimento/chats': () => <AttendancePage />,
  'atendimento/chat': () => <AttendancePage />,
  filas: () => <QueuesPage />,
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
  usuarios: () => <UsersPage />,
  sessoes: () => <ChannelsPage key="sessoes" routeId="sessoes" />,
  sessoestenants: () => <ChannelsPage key="sessoestenants" routeId="sessoestenants" />,
  ...REPORT_SCREENS,
};
