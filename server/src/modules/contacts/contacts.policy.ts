import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, assertSameTenant, requireProfile } from '../../core/policy';

/**
 * Who may do what with contacts (spec sections 2 and 6, issue "CRM base"):
 * - every profile of the tenant lists, reads, creates, edits, tags and blocks contacts;
 * - deleting, importing (file or phone), exporting, removing duplicates and changing wallets
 *   (the responsible users, which later decide ticket visibility) need a supervisor or admin.
 * The first rule is "same tenant": another tenant's contact is not found, never forbidden.
 */
export type ContactAction =
  'list' | 'read' | 'create' | 'update' | 'tag' | 'block' | 'delete' | 'import' | 'export' | 'removeDuplicates' | 'changeWallets';

const SUPERVISOR_ACTIONS: ReadonlySet<ContactAction> = new Set([
  'delete',
  'import',
  'export',
  'removeDuplicates',
  'changeWallets',
]);

/** For actions on the collection (list, create, import, export, remove duplicates). */
export function authorizeContactAction(auth: AuthContext, action: ContactAction): void {
  if (SUPERVISOR_ACTIONS.has(action)) requireProfile(auth, SUPERVISOR_PROFILES);
}

/** Right after loading one contact: same tenant first, then the profile gate of the action. */
export function authorizeContact<T extends { tenantId: number }>(
  auth: AuthContext,
  action: ContactAction,
  contact: T | null | undefined,
): T {
  const row = assertSameTenant(auth, contact, 'ERR_NO_CONTACT_FOUND');
  authorizeContactAction(auth, action);
  return row;
}

/** Import rows are tenant-owned like contacts; someone else's import is simply not found. */
export function authorizeContactImport<T extends { tenantId: number }>(
  auth: AuthContext,
  contactImport: T | null | undefined,
): T {
  const row = assertSameTenant(auth, contactImport, 'ERR_NOT_FOUND');
  authorizeContactAction(auth, 'import');
  return row;
}
