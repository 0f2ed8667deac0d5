import type { Profile } from '@shared/profiles';
import type { AppDeps } from '../../deps';
import { SettingsService } from '../settings/settings.service';
import { buildViewer, type TicketViewer, type ViewerSource } from './ticket-visibility.policy';

interface ViewerUserRow {
  id: number;
  profile: Profile;
  email: string;
  queues: unknown;
}

/**
 * Loads what ticket visibility needs to know about a caller: the user's current profile and
 * queues (one primary-key read) and the tenant's visibility settings (cached per tenant). Used
 * once per list request, once per GET /sync and at each socket handshake.
 */
export class TicketViewerLoader {
  private readonly settings: SettingsService;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock'>) {
    this.settings = new SettingsService(deps);
  }

  async load(auth: ViewerSource): Promise<TicketViewer> {
    const [viewer] = await this.loadMany(auth.tenantId, [auth.userId]);
    // A user deleted since the token was issued sees nothing beyond their own tickets.
    return (
      viewer ??
      buildViewer(auth, { profile: 'user', email: auth.email, queues: [] }, await this.settings.valuesOfTenant(auth.tenantId))
    );
  }

  /** Viewers of several users of one tenant (socket facts refresh), in one query. */
  async loadMany(tenantId: number, userIds: number[]): Promise<TicketViewer[]> {
    if (userIds.length === 0) return [];
    const [rows, settings] = await Promise.all([
      this.deps.dataSource.query(`SELECT id, profile, email, queues FROM users WHERE "tenantId" = $1 AND id = ANY($2::int[])`, [
        tenantId,
        userIds,
      ]) as Promise<ViewerUserRow[]>,
      this.settings.valuesOfTenant(tenantId),
    ]);
    return rows.map((row) => buildViewer({ tenantId, userId: row.id, profile: row.profile, email: row.email }, row, settings));
  }

  /** Drops the cached settings of a tenant (a `settings:update` written by another process). */
  invalidateSettings(tenantId: number): void {
    this.settings.invalidate(tenantId);
  }
}
