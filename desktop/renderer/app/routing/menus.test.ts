import { describe, expect, it } from 'vitest';
import { ALL_MENU_SECTIONS, menuFor } from './menus';
import { flattenShellRoutes } from './route-table';

const ids = (profile: Parameters<typeof menuFor>[0], tenantBlocked = false) =>
  menuFor(profile, { tenantBlocked }).flatMap((section) => section.items.map((item) => item.id));

describe('menus by profile', () => {
  it('gives every profile its sections, cumulatively up to admin', () => {
    expect(menuFor('user').map((s) => s.id)).toEqual(['main']);
    expect(menuFor('super').map((s) => s.id)).toEqual(['main', 'supervisor']);
    expect(menuFor('admin').map((s) => s.id)).toEqual(['main', 'supervisor', 'admin']);
    expect(menuFor('superadmin').map((s) => s.id)).toEqual(['superadmin']);
    expect(menuFor(null)).toEqual([]);
  });

  it('keeps higher items away from lower profiles', () => {
    expect(ids('user')).toContain('tickets');
    expect(ids('user')).not.toContain('reports');
    expect(ids('super')).toContain('reports');
    expect(ids('super')).not.toContain('settings');
    expect(ids('admin')).toContain('settings');
    expect(ids('admin')).not.toContain('tenants');
    expect(ids('superadmin')).toContain('tenants');
    expect(ids('superadmin')).not.toContain('contacts');
  });

  it('shows only settings to a blocked tenant', () => {
    expect(ids('admin', true)).toEqual(['blockedSettings']);
  });

  it('links every item to a registered route', () => {
    const paths = new Set(flattenShellRoutes().map((r) => r.path));
    for (const item of ALL_MENU_SECTIONS.flatMap((s) => s.items)) expect(paths).toContain(item.to);
  });
});
