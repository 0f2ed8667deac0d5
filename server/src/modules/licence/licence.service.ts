import { LICENCE_ACTIVATION_INTERVAL_MS, type ActivateLicenceInput, type Licence, type LicenceStatus } from '@shared/schemas/licence';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { PLATFORM_TENANT_ID, requirePlatformSuperadmin } from '../../core/platform';
import { readPlatformSettings, writePlatformSettings } from '../../core/platform-settings';
import { lockTenant, type Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { isLicenceKeyFor } from './licence-key';

const KEYS = {
  email: 'platform:licence.email',
  key: 'platform:licence.key',
  status: 'platform:licence.status',
  activatedAt: 'platform:licence.activatedAt',
  lastAttemptAt: 'platform:licence.lastAttemptAt',
} as const;

type Stored = Partial<Record<(typeof KEYS)[keyof typeof KEYS], string>>;

/**
 * The platform licence (super administrator, /assinatura): e-mail and key in the platform
 * tenant's private settings. Activation is rate-limited to one attempt a minute (spec section 9),
 * counted whether the key is accepted or not; while it is checked the status is `validating`,
 * then `active` (spec section 4). The check is local (licence-key.ts): no call home.
 */
export class LicenceService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'clock'>) {}

  async get(auth: AuthContext): Promise<Licence> {
    requirePlatformSuperadmin(auth);
    return this.present(await readPlatformSettings(this.deps.dataSource, Object.values(KEYS)));
  }

  async activate(auth: AuthContext, input: ActivateLicenceInput): Promise<Licence> {
    requirePlatformSuperadmin(auth);
    const now = this.deps.clock.now();
    // The attempt is recorded (and committed) first, so a refused key still counts for the limit.
    const before = await this.deps.dataSource.transaction(async (tx) => {
      await lockTenant(tx, PLATFORM_TENANT_ID);
      const stored = await readPlatformSettings(tx, Object.values(KEYS));
      const retryAt = nextActivationAt(stored, now);
      if (retryAt) {
        const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
        throw new AppError('ERR_LICENCE_RATE_LIMIT', {
          message: `Aguarde 1 minuto entre ativações da licença. Tente novamente em ${seconds} segundos.`,
          headers: { 'Retry-After': String(seconds) },
          details: { retryAfterSeconds: seconds },
        });
      }
      await writePlatformSettings(tx, { [KEYS.lastAttemptAt]: now.toISOString(), [KEYS.status]: 'validating' });
      return stored;
    });

    const valid = isLicenceKeyFor(input.email, input.key);
    await this.deps.dataSource.transaction(async (tx: Queryable) => {
      if (valid) {
        await writePlatformSettings(tx, {
          [KEYS.email]: input.email,
          [KEYS.key]: input.key,
          [KEYS.status]: 'active',
          [KEYS.activatedAt]: this.deps.clock.now().toISOString(),
        });
      } else {
        // The licence in place before the attempt stays as it was.
        await writePlatformSettings(tx, { [KEYS.status]: before[KEYS.status] === 'active' ? 'active' : '' });
      }
    });
    if (!valid) throw new AppError('ERR_LICENCE_INVALID', { fields: [{ path: 'key', message: 'não corresponde ao e-mail informado' }] });
    return this.get(auth);
  }

  private present(stored: Stored): Licence {
    const status = stored[KEYS.status];
    const key = stored[KEYS.key];
    const retryAt = nextActivationAt(stored, this.deps.clock.now());
    return {
      email: stored[KEYS.email] || null,
      keyHint: key ? `•••••-•••••-•••••-•••••-${key.slice(-5)}` : null,
      status: status === 'active' || status === 'validating' ? (status as LicenceStatus) : null,
      activatedAt: stored[KEYS.activatedAt] || null,
      nextActivationAt: retryAt ? retryAt.toISOString() : null,
    };
  }
}

function nextActivationAt(stored: Stored, now: Date): Date | null {
  const last = stored[KEYS.lastAttemptAt] ? new Date(stored[KEYS.lastAttemptAt]!) : null;
  if (!last || Number.isNaN(last.getTime())) return null;
  const next = new Date(last.getTime() + LICENCE_ACTIVATION_INTERVAL_MS);
  return next > now ? next : null;
}
