import { isOneOfOrigins } from './origin.matcher';

/**
 * The console needs two browser permissions: notifications, and the microphone for the web phone.
 * Camera, screen capture, geolocation, clipboard-read, MIDI, HID/USB/serial, openExternal ... are
 * all refused, and only the app's own top-level page may ask at all.
 */
export const ALLOWED_PERMISSIONS = ['notifications', 'media'] as const;

export interface PermissionRequestDetails {
  requestingUrl?: string;
  isMainFrame: boolean;
  /** Present on media requests: which devices are asked for. */
  mediaTypes?: readonly string[];
}

export function decidePermissionRequest(
  permission: string,
  details: PermissionRequestDetails,
  appOrigins: readonly string[],
): boolean {
  if (!details.isMainFrame || !details.requestingUrl || !isOneOfOrigins(details.requestingUrl, appOrigins)) return false;
  if (permission === 'notifications') return true;
  if (permission === 'media') {
    const types = details.mediaTypes ?? [];
    return types.length > 0 && types.every((type) => type === 'audio');
  }
  return false;
}

export interface PermissionCheckDetails {
  isMainFrame: boolean;
  mediaType?: string;
}

/** Synchronous checks (e.g. Notification.permission, device labels) follow the same rules. */
export function decidePermissionCheck(
  permission: string,
  requestingOrigin: string,
  details: PermissionCheckDetails,
  appOrigins: readonly string[],
): boolean {
  if (!details.isMainFrame || !isOneOfOrigins(requestingOrigin, appOrigins)) return false;
  if (permission === 'notifications') return true;
  if (permission === 'media') return details.mediaType === 'audio';
  return false;
}
