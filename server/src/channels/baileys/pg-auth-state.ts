import type { AuthenticationState, SignalDataSet, SignalDataTypeMap } from '@whiskeysockets/baileys';
import type { Queryable } from '../../core/tenant-catalog';
import type { BaileysLib } from './baileys-lib';

/** Row key of the credentials; Signal keys are `<type>-<id>` (as useMultiFileAuthState names its files). */
export const CREDS_KEY = 'creds';

export interface PgAuthState {
  state: AuthenticationState;
  /** Baileys' `creds.update` handler: writes the (mutated) credentials. */
  saveCreds(): Promise<void>;
  /** Logout or channel deleted: every row of the channel goes. */
  clear(): Promise<void>;
}

type Lib = Pick<BaileysLib, 'BufferJSON' | 'initAuthCreds' | 'appStateSyncKeyFromObject'>;

/**
 * A `useMultiFileAuthState`-compatible auth state kept in `channel_auth_state`, one row per
 * credential or Signal key of the channel, values serialised with Baileys' BufferJSON. Every
 * write goes straight to PostgreSQL (a batch of keys in one statement), so a restart or another
 * server process resumes the login from the same rows.
 */
export async function usePgAuthState(db: Queryable, channel: { id: number; tenantId: number }, lib: Lib): Promise<PgAuthState> {
  const serialise = (value: unknown) => JSON.stringify(value, lib.BufferJSON.replacer);
  const parse = (text: string) => JSON.parse(text, lib.BufferJSON.reviver) as unknown;

  const [stored] = (await db.query(`SELECT value FROM channel_auth_state WHERE "channelId" = $1 AND key = $2`, [
    channel.id,
    CREDS_KEY,
  ])) as { value: string }[];
  const creds = (stored ? parse(stored.value) : lib.initAuthCreds()) as AuthenticationState['creds'];

  const write = async (keys: string[], values: (string | null)[]) => {
    const set = keys.map((k, i) => [k, values[i]] as const).filter(([, v]) => v !== null);
    const removed = keys.filter((_, i) => values[i] === null);
    if (set.length > 0) {
      await db.query(
        `INSERT INTO channel_auth_state ("channelId", "tenantId", key, value)
         SELECT $1, $2, x.key, x.value FROM unnest($3::text[], $4::text[]) AS x(key, value)
         ON CONFLICT ("channelId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
        [channel.id, channel.tenantId, set.map(([k]) => k), set.map(([, v]) => v)],
      );
    }
    if (removed.length > 0) {
      await db.query(`DELETE FROM channel_auth_state WHERE "channelId" = $1 AND key = ANY($2::text[])`, [channel.id, removed]);
    }
  };

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const out: { [id: string]: SignalDataTypeMap[T] } = {};
        if (ids.length === 0) return out;
        const rows = (await db.query(
          `SELECT key, value FROM channel_auth_state WHERE "channelId" = $1 AND key = ANY($2::text[])`,
          [channel.id, ids.map((id) => `${type}-${id}`)],
        )) as { key: string; value: string }[];
        const byKey = new Map(rows.map((r) => [r.key, r.value]));
        for (const id of ids) {
          const text = byKey.get(`${type}-${id}`);
          if (text === undefined) continue;
          let value = parse(text);
          if (type === 'app-state-sync-key' && value) value = lib.appStateSyncKeyFromObject(value);
          out[id] = value as SignalDataTypeMap[T];
        }
        return out;
      },
      async set(data: SignalDataSet) {
        const keys: string[] = [];
        const values: (string | null)[] = [];
        for (const type of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
          for (const [id, value] of Object.entries(data[type] ?? {})) {
            keys.push(`${type}-${id}`);
            values.push(value ? serialise(value) : null);
          }
        }
        await write(keys, values);
      },
      async clear() {
        await db.query(`DELETE FROM channel_auth_state WHERE "channelId" = $1 AND key <> $2`, [channel.id, CREDS_KEY]);
      },
    },
  };

  return {
    state,
    saveCreds: () => write([CREDS_KEY], [serialise(state.creds)]),
    clear: () => clearAuthState(db, channel.id),
  };
}

export async function clearAuthState(db: Queryable, channelId: number): Promise<void> {
  await db.query(`DELETE FROM channel_auth_state WHERE "channelId" = $1`, [channelId]);
}

/** Whether the channel has a completed login stored (credentials of a registered device). */
export async function hasStoredLogin(db: Queryable, channelId: number): Promise<boolean> {
  const rows = (await db.query(
    `SELECT 1 FROM channel_auth_state WHERE "channelId" = $1 AND key = $2 AND value::jsonb ? 'me'`,
    [channelId, CREDS_KEY],
  )) as unknown[];
  return rows.length > 0;
}
