import { Tooltip } from '@blueprintjs/core';
import type { Presence } from '@shared/schemas/internal-chat';
import { useTranslation } from 'react-i18next';
import './presence-dot.css';

/** A user as lists carry it: `presence` (issue #18), or only the older online flag. */
export interface PresenceSource {
  presence?: Presence | null;
  isOnline?: boolean | null;
}

/** The presence to show for a user: theirs, else online or offline from the flag. */
export function presenceOfUser(user: PresenceSource): Presence {
  return user.presence ?? (user.isOnline ? 'online' : 'offline');
}

/**
 * A user's presence as a coloured dot (green online, amber away, grey offline) with its name in
 * a tooltip and for screen readers. Lists keep it live with `user:status` (the realtime client
 * patches the cached users lists; app/realtime/event-dispatcher.ts).
 */
export function PresenceDot({ presence, className }: { presence: Presence | null | undefined; className?: string }) {
  const { t } = useTranslation();
  const state: Presence = presence ?? 'offline';
  const label = state === 'online' ? t('presence.online') : state === 'away' ? t('presence.away') : t('presence.offline');
  return (
    <Tooltip content={label} placement="top" compact className="app-presence-dot-target">
      <span
        className={`app-presence-dot is-${state}${className ? ` ${className}` : ''}`}
        role="img"
        aria-label={label}
        data-testid="presence-dot"
        data-presence={state}
      />
    </Tooltip>
  );
}
