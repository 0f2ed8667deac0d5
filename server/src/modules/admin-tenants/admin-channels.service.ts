import type { AuthContext } from '../../core/auth-context';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { ChannelsService } from '../channels/channels.service';
import { tenantAdminPolicy } from './admin-tenants.policy';

/**
 * Actions of the super administrator on any tenant's channel (/sessoestenants): restart or end
 * its session, delete it. Each runs the tenant's own channel use case as that tenant's
 * administrator would, so its rules (events, tickets that lose the channel) stay in one place.
 */
export class AdminChannelsService {
  private readonly channels: ChannelsService;

  constructor(private readonly deps: AppDeps) {
    this.channels = new ChannelsService(deps);
  }

  async restart(auth: AuthContext, channelId: number) {
    return this.channels.startSession(await this.actingAdmin(auth, channelId), channelId);
  }

  async disconnect(auth: AuthContext, channelId: number) {
    return this.channels.endSession(await this.actingAdmin(auth, channelId), channelId);
  }

  async remove(auth: AuthContext, channelId: number): Promise<void> {
    const acting = await this.actingAdmin(auth, channelId);
    await this.channels.endSession(acting, channelId).catch(() => undefined);
    await this.channels.remove(acting, channelId);
  }

  private async actingAdmin(auth: AuthContext, channelId: number): Promise<AuthContext> {
    tenantAdminPolicy.manage(auth);
    const rows: { tenantId: number }[] = await this.deps.dataSource.query(`SELECT "tenantId" FROM channels WHERE id = $1`, [channelId]);
    if (!rows[0]) throw new AppError('ERR_NO_WAPP_FOUND');
    return { ...auth, tenantId: rows[0].tenantId, profile: 'admin' };
  }
}
