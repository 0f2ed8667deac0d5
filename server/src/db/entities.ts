import { EntitySchema } from 'typeorm';
import type { Profile } from '@shared/profiles';

/**
 * Foundation entities. Schemas without decorators (EntitySchema) so that every TypeScript
 * transformer in the toolchain (tsx, Vite, Vitest) reads them the same way.
 * Columns are camelCase, as in the anchor product; tables are snake_case.
 */

export interface Plan {
  id: number;
  name: string;
  value: string;
  maxConnections: number;
  maxUsers: number;
  trial: boolean;
  trialDays: number;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const PlanEntity = new EntitySchema<Plan>({
  name: 'Plan',
  tableName: 'plans',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    name: { type: 'varchar' },
    value: { type: 'numeric', precision: 12, scale: 2, default: 0 },
    maxConnections: { type: 'int', default: 1 },
    maxUsers: { type: 'int', default: 1 },
    trial: { type: 'boolean', default: false },
    trialDays: { type: 'int', default: 0 },
    active: { type: 'boolean', default: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});

export type TenantStatus = 'active' | 'inactive';

export interface Tenant {
  id: number;
  name: string;
  status: TenantStatus;
  identity: string | null;
  maxUsers: number;
  maxConnections: number;
  planId: number | null;
  hideUnofficial: boolean;
  paymentActive: boolean;
  paymentToken: string | null;
  customerId: string | null;
  /** A charge is overdue past the grace days (payments/overdue.ts): only the blocked menu is reachable. */
  overdueBlocked: boolean;
  trial: boolean;
  trialDays: number;
  /** Last domain-event sequence number handed out for this tenant. */
  eventSeq: string;
  businessHours: BusinessHoursDay[];
  messageBusinessHours: string | null;
  ratingSettings: Record<string, unknown>;
  systemColors: Record<string, string>[];
  createdAt: Date;
  updatedAt: Date;
}

export interface BusinessHoursDay {
  day: number;
  label?: string;
  type: 'O' | 'C' | 'H';
  hr1: string;
  hr2: string;
  hr3: string;
  hr4: string;
}

export const TenantEntity = new EntitySchema<Tenant>({
  name: 'Tenant',
  tableName: 'tenants',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    name: { type: 'varchar' },
    status: { type: 'varchar', default: 'active' },
    identity: { type: 'varchar', nullable: true },
    maxUsers: { type: 'int', default: 10 },
    maxConnections: { type: 'int', default: 3 },
    planId: { type: 'int', nullable: true },
    hideUnofficial: { type: 'boolean', default: false },
    paymentActive: { type: 'boolean', default: false },
    paymentToken: { type: 'varchar', nullable: true },
    customerId: { type: 'varchar', nullable: true },
    overdueBlocked: { type: 'boolean', default: false },
    trial: { type: 'boolean', default: false },
    trialDays: { type: 'int', default: 0 },
    eventSeq: { type: 'bigint', default: 0 },
    businessHours: { type: 'jsonb', default: () => "'[]'::jsonb" },
    messageBusinessHours: { type: 'text', nullable: true },
    ratingSettings: { type: 'jsonb', default: () => "'{}'::jsonb" },
    systemColors: { type: 'jsonb', default: () => "'[]'::jsonb" },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});

export interface User {
  id: number;
  tenantId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: Profile;
  queues: number[];
  allowedConnections: number[];
  blockVoice: boolean;
  isOnline: boolean;
  /** Online but idle on every connected app (presence 'away'); false whenever offline. */
  away: boolean;
  lastOnline: Date | null;
  configs: { filtrosAtendimento?: unknown; isDark?: boolean };
  /** Bumped on password change: sessions created before are revoked. */
  tokenVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export const UserEntity = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    tenantId: { type: 'int' },
    name: { type: 'varchar' },
    email: { type: 'varchar' },
    passwordHash: { type: 'varchar' },
    profile: { type: 'varchar', default: 'user' },
    queues: { type: 'jsonb', default: () => "'[]'::jsonb" },
    allowedConnections: { type: 'jsonb', default: () => "'[]'::jsonb" },
    blockVoice: { type: 'boolean', default: false },
    isOnline: { type: 'boolean', default: false },
    away: { type: 'boolean', default: false },
    lastOnline: { type: 'timestamptz', nullable: true },
    configs: { type: 'jsonb', default: () => "'{}'::jsonb" },
    tokenVersion: { type: 'int', default: 0 },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});

export interface UserTenant {
  id: number;
  userId: number;
  tenantId: number;
  createdAt: Date;
}

export const UserTenantEntity = new EntitySchema<UserTenant>({
  name: 'UserTenant',
  tableName: 'user_tenants',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    userId: { type: 'int' },
    tenantId: { type: 'int' },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});

export interface Setting {
  id: number;
  tenantId: number;
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

export const SettingEntity = new EntitySchema<Setting>({
  name: 'Setting',
  tableName: 'settings',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    tenantId: { type: 'int' },
    key: { type: 'varchar' },
    value: { type: 'text' },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});

/**
 * Who may receive an event. One function (realtime/audience.ts) decides it for the socket
 * fan-out and for GET /sync alike.
 */
export type EventAudience =
  | { scope: 'tenant' }
  | { scope: 'user'; userId: number }
  /** A few users of the tenant (an internal-chat conversation: both users, or a team's members at the time of the event). */
  | { scope: 'users'; userIds: number[] }
  | { scope: 'profiles'; profiles: Profile[] }
  | {
      scope: 'ticket';
      ticket: TicketAudienceFacts;
      /**
       * The ticket before this change. A viewer who could see it then and cannot now receives
       * `ticket:delete` instead of the event (the ticket leaves their list).
       */
      previous?: TicketAudienceFacts;
    };

/** What ticket visibility (spec section 6) needs to know to decide who may see a ticket event. */
export interface TicketAudienceFacts {
  ticketId: number;
  contactId: number;
  queueId: number | null;
  userId: number | null;
  status: string;
  isGroup: boolean;
  botActive: boolean;
  /** Wallet owners of the contact (DirectTicketsToWallets). */
  walletUserIds?: number[];
}

export interface DomainEvent {
  id: string;
  tenantId: number;
  seq: string;
  name: string;
  payload: unknown;
  audience: EventAudience;
  createdAt: Date;
}

export const DomainEventEntity = new EntitySchema<DomainEvent>({
  name: 'DomainEvent',
  tableName: 'domain_events',
  columns: {
    id: { type: 'bigint', primary: true, generated: 'increment' },
    tenantId: { type: 'int' },
    seq: { type: 'bigint' },
    name: { type: 'varchar' },
    payload: { type: 'jsonb' },
    audience: { type: 'jsonb' },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});

/** A login session: the family of rotating refresh tokens. Revoking it ends the session. */
export interface AuthSession {
  id: string;
  tenantId: number;
  userId: number;
  tokenVersion: number;
  userAgent: string | null;
  ip: string | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  expiresAt: Date;
  createdAt: Date;
}

export const AuthSessionEntity = new EntitySchema<AuthSession>({
  name: 'AuthSession',
  tableName: 'auth_sessions',
  columns: {
    id: { type: 'uuid', primary: true },
    tenantId: { type: 'int' },
    userId: { type: 'int' },
    tokenVersion: { type: 'int', default: 0 },
    userAgent: { type: 'varchar', nullable: true },
    ip: { type: 'varchar', nullable: true },
    revokedAt: { type: 'timestamptz', nullable: true },
    revokedReason: { type: 'varchar', nullable: true },
    expiresAt: { type: 'timestamptz' },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});

export interface RefreshToken {
  id: string;
  sessionId: string;
  tokenHash: string;
  usedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

export const RefreshTokenEntity = new EntitySchema<RefreshToken>({
  name: 'RefreshToken',
  tableName: 'refresh_tokens',
  columns: {
    id: { type: 'uuid', primary: true },
    sessionId: { type: 'uuid' },
    tokenHash: { type: 'varchar' },
    usedAt: { type: 'timestamptz', nullable: true },
    expiresAt: { type: 'timestamptz' },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});

export interface PasswordReset {
  id: string;
  tenantId: number;
  userId: number;
  tokenHash: string;
  usedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

export const PasswordResetEntity = new EntitySchema<PasswordReset>({
  name: 'PasswordReset',
  tableName: 'password_resets',
  columns: {
    id: { type: 'uuid', primary: true },
    tenantId: { type: 'int' },
    userId: { type: 'int' },
    tokenHash: { type: 'varchar' },
    usedAt: { type: 'timestamptz', nullable: true },
    expiresAt: { type: 'timestamptz' },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});

export const foundationEntities = [
  PlanEntity,
  TenantEntity,
  UserEntity,
  UserTenantEntity,
  SettingEntity,
  DomainEventEntity,
  AuthSessionEntity,
  RefreshTokenEntity,
  PasswordResetEntity,
];
