import type { PendingSignup } from '@shared/schemas/signup';

export interface PendingSignupRow {
  tenantId: number;
  tenantName: string;
  identity: string | null;
  adminName: string;
  email: string;
  phone: string;
  planId: number | null;
  planName: string | null;
  createdAt: Date | string;
  expiresAt: Date | string;
}

export function presentPendingSignup(row: PendingSignupRow): PendingSignup {
  return {
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    identity: row.identity,
    adminName: row.adminName,
    email: row.email,
    phone: row.phone,
    planId: row.planId,
    planName: row.planName,
    createdAt: new Date(row.createdAt).toISOString(),
    linkExpiresAt: new Date(row.expiresAt).toISOString(),
  };
}
