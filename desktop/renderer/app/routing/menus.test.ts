import { IconNames } from '@blueprintjs/icons';
import { describe, expect, it } from 'vitest';
import { PROFILES } from '@shared/profiles';
import { ALL_MENU_SECTIONS, menuFor } from './menus';
import { ROUTE_SCREENS } from './route-screens';
import { flattenShellRoutes, profileMayOpen, shellRouteOf } from './route-table';
import { UNDER_CONSTRUCTION } from './under-construction';

const ids = (profile: Parameters<typeof menuFor>[0], tenantBlocked = false) =>
  menuFor(profile, { tenantBlocked }).flatMap((section) => section.items.map((item) => item.id));
const sectionItems = (id: string) => ALL_MENU_SECTIONS.find((section) => section.id === id)!.items.map((item) => item.id);

/** The route a menu item shows in the end: a redirecting parent shows its first child. */
const screenRouteOf = (to: string) => {
  const route = shellRouteOf(to);
  return route?.redirectTo ? shellRouteOf(route.redirectTo) : route;
};

describe('menus by profile', () => {
  it('gives every profile its sections, cumulatively up to admin', () => {
    expect(menuFor('user').map((s) => s.id)).toEqual(['main']);
    expect(menuFor('super').map((s) => s.id)).toEqual(['main', 'supervisor']);
    expect(menuFor('admin').map((s) => s.id)).toEqual(['main', 'supervisor', 'admin']);
    expect(menuFor('superadmin').map((s) => s.id)).toEqual(['superadmin']);
    expect(menuFor(null)).toEqual([]);
  });

  it('shows each section whole to its profiles (spec: main for all, supervisor adds, admin adds)', () => {
    const main = sectionItems('main');
    const supervisor = sectionItems('supervisor');
    // The dashboard item is in the main section but its route is for supervisors and admins (issue #13).
    expect(ids('user')).toEqual(main.filter((id) => id !== 'dashboard'));
    expect(ids('super')).toEqual([...main, ...supervisor]);
    expect(ids('admin')).toEqual([...main, ...supervisor, ...sectionItems('admin')]);
    expect(ids('superadmin')).toEqual(sectionItems('superadmin'));
  });

  it('keeps higher items away from lower profiles', () => {
    expect(ids('user')).toContain('tickets');
    expect(ids('user')).not.toContain('reports');
    expect(ids('user')).not.toContain('dashboard');
    expect(ids('super')).toContain('dashboard');
    expect(ids('super')).not.toContain('ticketPanel');
    expect(ids('admin')).toContain('ticketPanel');
    expect(ids('super')).toContain('reports');
    expect(ids('super')).not.toContain('settings');
    expect(ids('admin')).toContain('settings');
    expect(ids('admin')).not.toContain('tenants');
    expect(ids('superadmin')).toContain('tenants');
    expect(ids('superadmin')).not.toContain('contacts');
  });

  it('lists /auto-resposta (Auto resposta) beside the chatbot for supervisors and admins, not for a plain user', () => {
    const supervisorItems = ALL_MENU_SECTIONS.find((section) => section.id === 'supervisor')!.items;
    const item = supervisorItems.find((i) => i.id === 'autoReply');
    expect(item).toMatchObject({ to: '/auto-resposta', labelKey: 'menu.autoReply', icon: 'automatic-updates' });
    expect(supervisorItems.findIndex((i) => i.id === 'autoReply')).toBe(supervisorItems.findIndex((i) => i.id === 'chatbot') + 1);
    expect(ids('super')).toContain('autoReply');
    expect(ids('admin')).toContain('autoReply');
    expect(ids('user')).not.toContain('autoReply');
    expect(shellRouteOf('/auto-resposta')?.id).toBe('autoResposta');
  });

  it('gives the tenant admin its subscription (/assinatura) in the admin section, and the superadmin its licence in the platform section', () => {
    expect(ids('admin')).toContain('tenantSubscription');
    expect(menuFor('admin').find((s) => s.id === 'admin')!.items.map((i) => i.to)).toContain('/assinatura');
    expect(ids('super')).not.toContain('tenantSubscription');
    expect(ids('user')).not.toContain('tenantSubscription');
    expect(ids('superadmin')).toContain('subscription');
    expect(ids('superadmin')).not.toContain('tenantSubscription');
  });

  it('shows only settings to a blocked tenant', () => {
    expect(ids('admin', true)).toEqual(['blockedSettings']);
  });

  it('links every item to a registered route that the item’s profiles may open', () => {
    const paths = new Set(flattenShellRoutes().map((r) => r.path));
    for (const item of ALL_MENU_SECTIONS.flatMap((s) => s.items)) expect(paths).toContain(item.to);
    for (const profile of PROFILES) {
      for (const item of menuFor(profile).flatMap((s) => s.items))
        expect(profileMayOpen(profile, item.to), `${profile} ${item.to}`).toBe(true);
    }
  });

  it('gives every item a Blueprint icon that exists (an unknown name logs an error and shows nothing)', () => {
    const known = new Set<string>(Object.values(IconNames));
    const unknown = ALL_MENU_SECTIONS.flatMap((s) => s.items).filter((item) => !known.has(item.icon));
    expect(unknown.map((item) => `${item.id}: ${item.icon}`)).toEqual([]);
  });
});

describe('screens behind the menu', () => {
  it('opens a built screen from every menu item, except the routes on the UNDER_CONSTRUCTION allow-list', () => {
    const notBuilt = ALL_MENU_SECTIONS.flatMap((s) => s.items)
      .map((item) => ({ item, route: screenRouteOf(item.to)! }))
      .filter(({ route }) => !ROUTE_SCREENS[route.id] && !UNDER_CONSTRUCTION.includes(route.id))
      .map(({ item, route }) => `${item.id} -> ${route.path}`);
    expect(notBuilt).toEqual([]);
  });

  it('lists a route as under construction only while it has no screen (the list shrinks as screens land)', () => {
    const built = UNDER_CONSTRUCTION.filter((id) => ROUTE_SCREENS[id]);
    expect(built, 'built screens still listed in UNDER_CONSTRUCTION: remove them from the list').toEqual([]);
  });

  it('lists every route without a screen, names only real routes, and each once', () => {
    const routes = flattenShellRoutes();
    const routeIds = new Set(routes.map((route) => route.id));
    const missing = routes.filter(
      (route) => !route.redirectTo && !ROUTE_SCREENS[route.id] && !UNDER_CONSTRUCTION.includes(route.id),
    );
    expect(missing.map((route) => route.id)).toEqual([]);
    expect(UNDER_CONSTRUCTION.filter((id) => !routeIds.has(id))).toEqual([]);
    expect(new Set(UNDER_CONSTRUCTION).size).toBe(UNDER_CONSTRUCTION.length);
    expect(Object.keys(ROUTE_SCREENS).filter((id) => !routeIds.has(id))).toEqual([]);
  });
});
