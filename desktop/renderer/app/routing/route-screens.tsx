import type { ReactElement } from 'react';
import { AttendancePage } from '../../features/attendance/attendance-page';

/**
 * The built screen of each route id of the route table. A route missing here still renders the
 * "under construction" page, so adding a screen is one line in this map.
 */
export const ROUTE_SCREENS: Partial<Record<string, () => ReactElement>> = {
  atendimento: () => <AttendancePage />,
  'atendimento/chats': () => <AttendancePage />,
  'atendimento/chat': () => <AttendancePage />,
};
