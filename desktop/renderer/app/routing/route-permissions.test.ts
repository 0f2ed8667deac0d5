import { describe, expect, it } from 'vitest';
import { PROFILES, type Profile } from '@shared/profiles';
import { decideNavigation, landingPathFor } from './guards';
import { PARENT_REDIRECTS, flattenShellRoutes, profileMayOpen, shellRouteOf } from './route-table';

/**
 * Route permissions of every route for every profile. The expectation is written here again,
 * from spec section 2 ("Menus by profile") and section 6, rather than read from the route
 * table, so a wrong entry in the table fails. Children inherit the entry of their top-level
 * path. u = user, s = super, a = admin, S = superadmin.
 */
const EXPECTED: Record<string, string> = {
  '/tenants': 'S',
  '/tenantsPk': 'S',
  '/tenantsQueue': 'S',
  '/notificacao': 'S',
  '/terminal': 'S',
  '/customizar': 'S',
  '/atualizar': 'S',
  // Issue #13: the dashboard is for supervisors and administrators (the spec's menu lists it for all).
  '/home': 'sa',
  '/painel-atendimentos': 'a',
  '/sessoes': 'sa',
  '/sessoestenants': 'S',
  '/pagamentostenants': 'S',
  '/contatos': 'usa',
  '/usuarios': 'a',
  '/usuariotenants': 'S',
  '/auto-resposta': 'sa',
  '/mensagens-rapidas': 'sa',
  '/filas': 'sa',
  '/planos': 'S',
  '/assinatura': 'aS',
  '/tenantApi': 'S',
  '/equipes': 'sa',
  '/tarefas': 'usa',
  '/notas': 'sa',
  '/lanes': 'usa',
  '/etiquetas': 'sa',
  '/agendamentos': 'sa',
  '/aniversarios': 'sa',
  '/fechamento': 'sa',
  '/protocolos': 'sa',
  '/wavoip': 'a',
  '/horario-atendimento': 'sa',
  '/api-service': 'a',
  '/configuracoesbloqueio': 'usa',
  '/kanban': 'usa',
  '/configuracoes': 'a',
  '/configuracoesTenant': 'S',
  '/massa': 'usa',
  '/grupo': 'usa',
  '/avaliacoes': 'sa',
  '/campanhas': 'sa',
  '/chat-flow': 'sa',
  '/chat-privado': 'usa',
  '/relatorios': 'sa',
  '/atendimento': 'usa',
};
const LETTER: Record<Profile, string> = { user: 'u', super: 's', admin: 'a', superadmin: 'S' };

const expectedFor = (path: string): string => {
  const top = `/${path.split('/')[1]}`;
  const entry = EXPECTED[top];
  if (entry === undefined) throw new Error(`No expectation for ${path}`);
  return entry;
};

/** A concrete URL of a route pattern ('/atendimento/:ticketId/:pageNumber?' -> '/atendimento/7'). */
const concrete = (pattern: string) =>
  pattern
    .split('/')
    .filter((segment) => !segment.endsWith('?'))
    .map((segment) => (segment.startsWith(':') ? '7' : segment))
    .join('/');

const as = (profile: Profile) => ({ token: 'jwt', profile });
const ROUTES = flattenShellRoutes();

describe('route permissions, every route x profile', () => {
  it('has an expectation for every top-level route and no stale one', () => {
    const tops = new Set(ROUTES.map((route) => `/${route.path.split('/')[1]}`));
    expect([...tops].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const route of ROUTES) {
    for (const profile of PROFILES) {
      const allowed = expectedFor(route.path).includes(LETTER[profile]);
      it(`${route.path} ${allowed ? 'opens' : 'is refused'} for ${profile}`, () => {
        const url = concrete(route.path);
        expect(shellRouteOf(url)?.id).toBe(route.id);
        expect(profileMayOpen(profile, url)).toBe(allowed);
        const decision = decideNavigation({ pathname: url, search: '' }, as(profile));
        if (profile === 'superadmin' && (url === '/home' || url === '/contatos')) {
          // The spec's own silent redirects (tested below) come before the permission check.
          expect(decision).toEqual({ kind: 'redirect', to: url === '/home' ? '/tenants' : '/assinatura' });
        } else if (!allowed) {
          expect(decision).toEqual({ kind: 'redirect', to: landingPathFor(profile), messageKey: 'auth.routeForbidden' });
        } else if (PARENT_REDIRECTS[url]) {
          expect(decision).toEqual({ kind: 'redirect', to: PARENT_REDIRECTS[url] });
        } else {
          expect(decision).toEqual({ kind: 'allow' });
        }
      });
    }
  }
});

describe('refusal targets', () => {
  it('sends each profile to a landing page it may open (no redirect loop)', () => {
    for (const profile of PROFILES) {
      const landing = landingPathFor(profile);
      expect(profileMayOpen(profile, landing), profile).toBe(true);
      expect(decideNavigation({ pathname: landing, search: '' }, as(profile))).toEqual({ kind: 'allow' });
    }
  });

  it('keeps the spec redirects of the superadmin silent', () => {
    expect(decideNavigation({ pathname: '/home', search: '' }, as('superadmin'))).toEqual({ kind: 'redirect', to: '/tenants' });
    expect(decideNavigation({ pathname: '/contatos', search: '' }, as('superadmin'))).toEqual({
      kind: 'redirect',
      to: '/assinatura',
    });
  });

  it('refuses a parent before following its redirect (an agent on /configuracoes goes home at once)', () => {
    expect(decideNavigation({ pathname: '/configuracoes/', search: '' }, as('user'))).toEqual({
      kind: 'redirect',
      to: '/atendimento',
      messageKey: 'auth.routeForbidden',
    });
  });

  it('prefers the literal child over the parameter (chats is not a ticket id)', () => {
    expect(shellRouteOf('/atendimento/chats')?.id).toBe('atendimento/chats');
    expect(shellRouteOf('/atendimento/12/3')?.id).toBe('atendimento/chat');
    expect(shellRouteOf('/atendimento/12/3/4')).toBeUndefined();
    expect(shellRouteOf('/campanhas/9')?.id).toBe('campanhaContatos');
  });

  it('leaves unknown paths to the not-found page, and a session without a profile to login', () => {
    expect(decideNavigation({ pathname: '/nao-existe', search: '' }, as('user'))).toEqual({ kind: 'allow' });
    expect(decideNavigation({ pathname: '/home', search: '?tokenSetup=1' }, { token: 'jwt', profile: null })).toEqual({
      kind: 'allow',
    });
    // Login itself stays open, so the redirect below cannot loop.
    expect(decideNavigation({ pathname: '/login', search: '' }, { token: 'jwt', profile: null })).toEqual({ kind: 'allow' });
    expect(decideNavigation({ pathname: '/home', search: '' }, { token: 'jwt', profile: null })).toEqual({
      kind: 'redirect',
      to: '/login',
      messageKey: 'auth.loginRequired',
    });
  });
});
