import type { DeepLink } from '@shared/desktop-api';
import { shellRouteOf } from './route-table';

/**
 * Where an `atende://` link opens the console (issue #15, deep links): `atende://ticket/42` (and
 * `tickets/42`) the ticket in the attendance screen; any other path of the console's menu that
 * screen (`atende://relatorios`); anything else nothing. Main parsed the link strictly already;
 * the router's guards still decide whether this user may open the screen.
 */
export function deepLinkRoute(link: DeepLink): string | null {
  const ticket = /^\/tickets?\/([1-9]\d{0,15})$/.exec(link.path);
  if (ticket) return `/atendimento/${ticket[1]}`;
  if (!shellRouteOf(link.path)) return null;
  const query = new URLSearchParams(link.query).toString();
  return query ? `${link.path}?${query}` : link.path;
}
