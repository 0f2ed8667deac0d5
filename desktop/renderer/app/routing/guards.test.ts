import { describe, expect, it } from 'vitest';
import type { Profile } from '@shared/profiles';
import { decideNavigation, isPublicPath, isRedundantChatNavigation, landingPathFor, opensInNewTab } from './guards';
import { PARENT_REDIRECTS, flattenShellRoutes, pathTo } from './route-table';

const anonymous = { token: null, profile: null };
const as = (profile: Profile) => ({ token: 'jwt', profile });
const go = (pathname: string, search = '') => ({ pathname, search });

describe('anonymous visitor', () => {
  it('reaches login, signup, the sign-up confirmation link and reset', () => {
    for (const path of ['/login', '/signup', '/signup/confirm/abc123', '/reset/abc123', '/login/']) {
      expect(decideNavigation(go(path), anonymous)).toEqual({ kind: 'allow' });
    }
  });

  it('is sent to login with "Necessário realizar login" from anything else', () => {
    for (const path of [
      '/',
      '/home',
      '/contatos',
      '/atendimento/12',
      '/configuracoes/geral',
      '/nao-existe',
      '/reset',
      '/reset/a/b',
      '/signup/confirm',
      '/signup/confirm/a/b',
    ]) {
      expect(decideNavigation(go(path), anonymous)).toEqual({ kind: 'redirect', to: '/login', messageKey: 'auth.loginRequired' });
    }
  });

  it('passes with the token-setup query flag', () => {
    expect(decideNavigation(go('/atendimento', '?tokenSetup=1'), anonymous)).toEqual({ kind: 'allow' });
  });
});

describe('signed-in user', () => {
  it('/ goes to assinatura for the superadmin and to contacts for everyone else', () => {
    expect(decideNavigation(go('/'), as('superadmin'))).toEqual({ kind: 'redirect', to: '/assinatura' });
    for (const profile of ['user', 'super', 'admin'] as const) {
      expect(decideNavigation(go('/'), as(profile))).toEqual({ kind: 'redirect', to: '/contatos' });
    }
  });

  it('sends the superadmin away from the dashboard (to tenants) and from contacts', () => {
    expect(decideNavigation(go('/home'), as('superadmin'))).toEqual({ kind: 'redirect', to: '/tenants' });
    expect(decideNavigation(go('/contatos'), as('superadmin'))).toEqual({ kind: 'redirect', to: '/assinatura' });
    expect(decideNavigation(go('/home'), as('admin'))).toEqual({ kind: 'allow' });
    expect(decideNavigation(go('/contatos'), as('user'))).toEqual({ kind: 'allow' });
  });

  it('follows the parent redirects of spec section 2', () => {
    expect(PARENT_REDIRECTS).toEqual({
      '/kanban': '/kanban/kanbans',
      '/configuracoes': '/configuracoes/geral',
      '/configuracoesTenant': '/configuracoesTenant/smtp-tenant',
      '/massa': '/massa/template',
      '/grupo': '/grupo/massagrupos',
      '/avaliacoes': '/avaliacoes/listar',
    });
    expect(decideNavigation(go('/kanban/'), as('admin'))).toEqual({ kind: 'redirect', to: '/kanban/kanbans' });
    expect(decideNavigation(go('/configuracoes/webhooks'), as('admin'))).toEqual({ kind: 'allow' });
  });

  it('lets unknown paths through so the router shows not-found', () => {
    expect(decideNavigation(go('/nao-existe'), as('user'))).toEqual({ kind: 'allow' });
  });
});

describe('landing after login', () => {
  it('admin -> home-dashboard, superadmin -> assinatura, user and super -> atendimento', () => {
    expect(landingPathFor('admin')).toBe('/home');
    expect(landingPathFor('superadmin')).toBe('/assinatura');
    expect(landingPathFor('user')).toBe('/atendimento');
    expect(landingPathFor('super')).toBe('/atendimento');
  });
});

describe('route table', () => {
  it('registers every spec path once', () => {
    const paths = flattenShellRoutes().map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of [
      '/tenants',
      '/home',
      '/assinatura',
      '/configuracoes/chat-gpt',
      '/grupo/massagrupos2',
      '/relatorios/contatos-por-carteira',
      '/campanhas/:campanhaId',
      '/chat-flow/builder',
      '/atendimento/chats',
      '/atendimento/contatos',
      '/configuracoesbloqueio',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('builds named routes, chat with ticketId, pageNumber and the t query', () => {
    expect(pathTo('home-dashboard')).toBe('/home');
    expect(pathTo('chat', { ticketId: 12 }, { t: 1700000000000 })).toBe('/atendimento/12?t=1700000000000');
    expect(pathTo('chat', { ticketId: 12, pageNumber: 2 })).toBe('/atendimento/12/2');
    expect(() => pathTo('chat')).toThrow(/ticketId/);
    expect(pathTo('reset', { token: 'a b' })).toBe('/reset/a%20b');
  });
});

describe('small navigation rules', () => {
  it('recognises public paths', () => {
    expect(isPublicPath('/reset/x')).toBe(true);
    expect(isPublicPath('/signup/')).toBe(true);
    expect(isPublicPath('/home')).toBe(false);
  });
  it('does not re-enter the empty chat from itself', () => {
    expect(isRedundantChatNavigation('/atendimento/chats', '/atendimento/chats/')).toBe(true);
    expect(isRedundantChatNavigation('/atendimento/chats', '/atendimento/5')).toBe(false);
    expect(isRedundantChatNavigation('/contatos', '/atendimento/chats')).toBe(false);
  });
  it('opens a new tab on ctrl-click, cmd-click and middle click', () => {
    expect(opensInNewTab({ ctrlKey: true, metaKey: false })).toBe(true);
    expect(opensInNewTab({ ctrlKey: false, metaKey: true })).toBe(true);
    expect(opensInNewTab({ ctrlKey: false, metaKey: false, button: 1 })).toBe(true);
    expect(opensInNewTab({ ctrlKey: false, metaKey: false, button: 0 })).toBe(false);
  });
});
