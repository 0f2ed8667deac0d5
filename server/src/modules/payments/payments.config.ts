import {
  PAYMENT_GRACE_DAYS_DEFAULT,
  PAYMENT_PROVIDER_DEFAULT_BASE_URL,
  type PaymentConfig,
  type PaymentConfigInput,
} from '@shared/schemas/payments';
import { AppError } from '../../core/app-error';
import { readPlatformSettings, writePlatformSettings } from '../../core/platform-settings';
import type { Queryable } from '../../core/tenant-catalog';
import { AsaasClient } from './asaas-client';

/** The payment provider's configuration, in the platform tenant's private settings. */
const KEYS = {
  baseUrl: 'platform:payments.baseUrl',
  apiKey: 'platform:payments.apiKey',
  webhookToken: 'platform:payments.webhookToken',
  graceDays: 'platform:payments.graceDays',
} as const;

export interface StoredPaymentConfig {
  baseUrl: string;
  apiKey: string | null;
  webhookToken: string | null;
  graceDays: number;
}

export async function readPaymentConfig(db: Queryable): Promise<StoredPaymentConfig> {
  const values = await readPlatformSettings(db, Object.values(KEYS));
  const grace = Number(values[KEYS.graceDays]);
  return {
    baseUrl: values[KEYS.baseUrl] || PAYMENT_PROVIDER_DEFAULT_BASE_URL,
    apiKey: values[KEYS.apiKey] || null,
    webhookToken: values[KEYS.webhookToken] || null,
    graceDays: Number.isInteger(grace) && grace >= 0 ? grace : PAYMENT_GRACE_DAYS_DEFAULT,
  };
}

/** An empty or missing secret keeps the stored one (the screen never receives it back). */
export async function writePaymentConfig(db: Queryable, input: PaymentConfigInput): Promise<void> {
  await writePlatformSettings(db, {
    [KEYS.baseUrl]: input.baseUrl,
    [KEYS.graceDays]: String(input.graceDays),
    ...(input.apiKey ? { [KEYS.apiKey]: input.apiKey } : {}),
    ...(input.webhookToken ? { [KEYS.webhookToken]: input.webhookToken } : {}),
  });
}

export function presentPaymentConfig(config: StoredPaymentConfig): PaymentConfig {
  return { baseUrl: config.baseUrl, graceDays: config.graceDays, apiKeySet: Boolean(config.apiKey), webhookTokenSet: Boolean(config.webhookToken) };
}

export function providerClient(config: StoredPaymentConfig): AsaasClient {
  if (!config.apiKey) throw new AppError('ERR_PAYMENT_PROVIDER_NOT_CONFIGURED');
  return new AsaasClient({ baseUrl: config.baseUrl, apiKey: config.apiKey });
}
