import { BUSINESS_TIME_ZONE } from '@shared/schemas/messages';
import { useListSettingsQuery } from '../../api/settings.api';

/** Whether the browser knows an IANA zone name. */
function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone a report's date-times are read in: the tenant's `timeZone` setting, as the server
 * uses for the period and the exported files, else the default business zone (issue #13:
 * America/Sao_Paulo). So a row reads the same in the table and in the file, whatever the
 * browser's own zone.
 */
export function useTenantTimeZone(): string {
  const settings = useListSettingsQuery();
  const zone = settings.data?.find((entry) => entry.key === 'timeZone')?.value?.trim();
  return zone && isKnownZone(zone) ? zone : BUSINESS_TIME_ZONE;
}
