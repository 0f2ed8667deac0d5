import type { AdminTenantDto, TenantDeletionDto } from '@shared/schemas/admin-tenants';

/** A tenant as the list query reads it: the DTO's own columns (the trial's end and the deletion come apart). */
export type AdminTenantRow = Omit<AdminTenantDto, 'trialEndsAt' | 'deletion'>;

export interface TenantDeletionRow {
  id: number;
  tenantId: number;
  tenantName: string;
  status: TenantDeletionDto['status'];
  progress: number;
  step: string | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const DAY_MS = 86_400_000;

/** The trial ends trialDays after the tenant was created (derived, never stored twice). */
export function trialEndsAt(row: Pick<AdminTenantRow, 'trial' | 'trialDays' | 'createdAt'>): string | null {
  if (!row.trial) return null;
  return new Date(new Date(row.createdAt).getTime() + row.trialDays * DAY_MS).toISOString();
}

export function presentDeletion(row: TenantDeletionRow): TenantDeletionDto {
  return {
    id: row.id,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    status: row.status,
    progress: row.progress,
    step: row.step,
    error: row.error,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: row.finishedAt ? new Date(row.finishedAt).toISOString() : null,
  };
}

export function presentTenant(row: AdminTenantRow, deletion: TenantDeletionRow | undefined): AdminTenantDto {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    identity: row.identity,
    planId: row.planId,
    planName: row.planName,
    maxUsers: row.maxUsers,
    maxConnections: row.maxConnections,
    limitsOverride: row.limitsOverride,
    trial: row.trial,
    trialDays: row.trialDays,
    trialEndsAt: trialEndsAt(row),
    userCount: Number(row.userCount),
    connectionCount: Number(row.connectionCount),
    createdAt: new Date(row.createdAt).toISOString(),
    deletion: deletion ? presentDeletion(deletion) : null,
  };
}
