import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import type {
  BusinessHoursDay,
  BusinessHoursResponse,
  RatingSettings,
  RatingSettingsInput,
  SystemColors,
  TenantUpdatePayload,
} from '@shared/schemas/tenant-settings';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { PLATFORM_TENANT_ID } from '../../core/platform';
import { TenantEntity, type Tenant } from '../../db/entities';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { authorizeTenantSettings } from './tenant-settings.policy';
import { presentBusinessHours, presentRating, presentSystemColors } from './tenant-settings.presenter';

type TenantSettingsDeps = Pick<AppDeps, 'dataSource' | 'events'>;

/** Columns of `tenants` that hold settings; the only ones this service writes. */
type SettingsColumn = 'businessHours' | 'messageBusinessHours' | 'ratingSettings' | 'systemColors';

/**
 * Settings kept on the tenant row: business hours and absence message, rating settings, and the
 * platform colours (on tenant 1). The tenant is always the caller's (AuthContext), never a value
 * from the request; the platform colours always live on tenant 1.
 */
export class TenantSettingsService {
  constructor(private readonly deps: TenantSettingsDeps) {}

  async getBusinessHours(auth: AuthContext): Promise<BusinessHoursResponse> {
    authorizeTenantSettings(auth, 'readBusinessHours');
    return presentBusinessHours(await this.load(auth.tenantId, ['businessHours', 'messageBusinessHours']));
  }

  async updateBusinessHours(auth: AuthContext, days: BusinessHoursDay[]): Promise<BusinessHoursResponse> {
    authorizeTenantSettings(auth, 'updateBusinessHours');
    return this.write(auth.tenantId, { businessHours: days }, (row) => {
      const view = presentBusinessHours(row);
      return { response: view, event: { businessHours: view.businessHours } };
    });
  }

  async updateMessageBusinessHours(auth: AuthContext, messageBusinessHours: string): Promise<BusinessHoursResponse> {
    authorizeTenantSettings(auth, 'updateBusinessHours');
    return this.write(auth.tenantId, { messageBusinessHours }, (row) => {
      const view = presentBusinessHours(row);
      return { response: view, event: { messageBusinessHours: view.messageBusinessHours } };
    });
  }

  async getRating(auth: AuthContext): Promise<RatingSettings> {
    authorizeTenantSettings(auth, 'readRating');
    return presentRating(await this.load(auth.tenantId, ['ratingSettings']));
  }

  /** Replaces the rating settings; optional fields left out take their defaults. */
  async updateRating(auth: AuthContext, input: RatingSettingsInput): Promise<RatingSettings> {
    authorizeTenantSettings(auth, 'updateRating');
    const settings = presentRating({ ratingSettings: input });
    return this.write(auth.tenantId, { ratingSettings: settings }, (row) => {
      const view = presentRating(row);
      return { response: view, event: { ratingSettings: view } };
    });
  }

  /** The platform colours (tenant 1), the same for every tenant. */
  async getSystemColors(auth: AuthContext): Promise<SystemColors> {
    authorizeTenantSettings(auth, 'readSystemColors');
    return platformSystemColors(this.deps);
  }

  /**
   * Saves the platform colours on tenant 1. The event goes to tenant 1 only: other tenants'
   * clients read the colours at start-up (GET /publicSystemColors), and writing one event per
   * tenant would make this call O(tenants).
   */
  async updateSystemColors(auth: AuthContext, colors: SystemColors): Promise<SystemColors> {
    authorizeTenantSettings(auth, 'updateSystemColors');
    return this.write(PLATFORM_TENANT_ID, { systemColors: colors }, (row) => {
      const view = presentSystemColors(row);
      return { response: view, event: { systemColors: view } };
    });
  }

  private async load<K extends SettingsColumn>(tenantId: number, columns: K[]): Promise<Pick<Tenant, K>> {
    const row = await this.deps.dataSource.getRepository(TenantEntity).findOne({
      where: { id: tenantId },
      select: Object.fromEntries(columns.map((c) => [c, true])) as Record<K, true>,
    });
    if (!row) throw new AppError('ERR_NO_TENANT_FOUND');
    return row;
  }

  /**
   * One UPDATE of the given settings columns on one tenant row, and the tenantUpdate event
   * recorded in the same transaction (published after commit).
   */
  private async write<R>(
    tenantId: number,
    changes: Partial<Pick<Tenant, SettingsColumn>>,
    shape: (row: Tenant) => { response: R; event: Omit<TenantUpdatePayload, 'tenantId'> },
  ): Promise<R> {
    return this.deps.events.transaction(async (tx: EntityManager, emit: Emit) => {
      const result = await tx
        .createQueryBuilder()
        .update(TenantEntity)
        .set(changes)
        .where('id = :tenantId', { tenantId })
        .returning(['id', 'businessHours', 'messageBusinessHours', 'ratingSettings', 'systemColors'])
        .execute();
      const row = (result.raw as Tenant[])[0];
      if (!row) throw new AppError('ERR_NO_TENANT_FOUND');
      const { response, event } = shape(row);
      const payload: TenantUpdatePayload = { tenantId, ...event };
      await emit(tenantId, SOCKET_EVENTS.tenantUpdate, payload, { scope: 'tenant' });
      return response;
    });
  }
}

/** GET /publicSystemColors: no caller, so no AuthContext; only the colours of tenant 1. */
export async function platformSystemColors(deps: Pick<AppDeps, 'dataSource'>): Promise<SystemColors> {
  const row = await deps.dataSource.getRepository(TenantEntity).findOne({
    where: { id: PLATFORM_TENANT_ID },
    select: { id: true, systemColors: true },
  });
  return presentSystemColors(row);
}
