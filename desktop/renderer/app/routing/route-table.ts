import type { Profile } from '@shared/profiles';

/**
 * Every route of spec section 2, as data. The router, the guards, the menus and the i18n key
 * check all read this one table, so a path is spelled once.
 *
 * `id` names the i18n title (`routes.<id>`); `name` is the spec's route name where it has one.
 * `profiles` says who may open the route: the guard sends anyone else to their landing page with
 * a message, and the menus show an item only to the profiles of its route, so a menu and its
 * route cannot disagree. Children inherit their parent's profiles.
 * A route without a built screen renders the "under construction" page (never a fake screen).
 */

export interface ShellRoute {
  /** Path relative to its parent ('' for an index-like parent that only redirects). */
  path: string;
  id: string;
  name?: RouteName;
  /** Child path the parent redirects to (spec: "/kanban redirects to /kanban/kanbans"). */
  redirectTo?: string;
  /** Who may open it; required on top-level routes, inherited by children that omit it. */
  profiles?: readonly Profile[];
  children?: ShellRoute[];
}

/** Spec section 2 "Menus by profile": main for all tenant users, supervisor adds, admin adds. */
const TENANT_USERS: readonly Profile[] = ['user', 'super', 'admin'];
const SUPERVISORS: readonly Profile[] = ['super', 'admin'];
const ADMINS: readonly Profile[] = ['admin'];
/** The platform's own administration (spec section 6 "Super administrator"). */
const PLATFORM: readonly Profile[] = ['superadmin'];

export type RouteName = 'login' | 'signup' | 'signup-confirm' | 'reset' | 'home-dashboard' | 'assinatura' | 'atendimento' | 'chat' | 'chat-empty';

/** Reachable without a token (spec section 2 and 6). */
export const PUBLIC_ROUTES = {
  login: '/login',
  signup: '/signup',
  /** The link of the sign-up confirmation e-mail. */
  signupConfirm: '/signup/confirm/:token',
  reset: '/reset/:token',
} as const;

/** Query flag that lets an external flow (desktop hand-off, invitation link) set the token. */
export const TOKEN_SETUP_QUERY_FLAG = 'tokenSetup';

const leaves = (ids: string[], idPrefix: string): ShellRoute[] => ids.map((path) => ({ path, id: `${idPrefix}/${path}` }));

export const SHELL_ROUTES: ShellRoute[] = [
  { path: 'tenants', profiles: PLATFORM, id: 'tenants' },
  { path: 'tenantsPk', profiles: PLATFORM, id: 'tenantsPk' },
  { path: 'tenantsQueue', profiles: PLATFORM, id: 'tenantsQueue' },
  { path: 'notificacao', profiles: PLATFORM, id: 'notificacao' },
  { path: 'terminal', profiles: PLATFORM, id: 'terminal' },
  { path: 'customizar', profiles: PLATFORM, id: 'customizar' },
  { path: 'atualizar', profiles: PLATFORM, id: 'atualizar' },
  // The dashboard is for supervisors and administrators (issue #13): its figures cover every
  // agent's tickets, and the statistics calls refuse agents.
  { path: 'home', profiles: SUPERVISORS, id: 'home', name: 'home-dashboard' },
  { path: 'painel-atendimentos', profiles: ADMINS, id: 'painelAtendimentos' },
  { path: 'sessoes', profiles: SUPERVISORS, id: 'sessoes' },
  { path: 'sessoestenants', profiles: PLATFORM, id: 'sessoestenants' },
  { path: 'pagamentostenants', profiles: PLATFORM, id: 'pagamentostenants' },
  { path: 'contatos', profiles: TENANT_USERS, id: 'contatos' },
  { path: 'usuarios', profiles: ADMINS, id: 'usuarios' },
  { path: 'usuariotenants', profiles: PLATFORM, id: 'usuariotenants' },
  { path: 'auto-resposta', profiles: SUPERVISORS, id: 'autoResposta' },
  { path: 'mensagens-rapidas', profiles: SUPERVISORS, id: 'mensagensRapidas' },
  { path: 'filas', profiles: SUPERVISORS, id: 'filas' },
  { path: 'planos', profiles: PLATFORM, id: 'planos' },
  // The super administrator's licence; a tenant administrator's subscription (plan, invoices to pay).
  { path: 'assinatura', profiles: ['admin', 'superadmin'], id: 'assinatura', name: 'assinatura' },
  { path: 'tenantApi', profiles: PLATFORM, id: 'tenantApi' },
  { path: 'equipes', profiles: SUPERVISORS, id: 'equipes' },
  { path: 'tarefas', profiles: TENANT_USERS, id: 'tarefas' },
  { path: 'notas', profiles: SUPERVISORS, id: 'notas' },
  { path: 'lanes', profiles: TENANT_USERS, id: 'lanes' },
  { path: 'etiquetas', profiles: SUPERVISORS, id: 'etiquetas' },
  { path: 'agendamentos', profiles: SUPERVISORS, id: 'agendamentos' },
  { path: 'aniversarios', profiles: SUPERVISORS, id: 'aniversarios' },
  { path: 'fechamento', profiles: SUPERVISORS, id: 'fechamento' },
  { path: 'protocolos', profiles: SUPERVISORS, id: 'protocolos' },
  { path: 'wavoip', profiles: ADMINS, id: 'wavoip' },
  { path: 'horario-atendimento', profiles: SUPERVISORS, id: 'horarioAtendimento' },
  { path: 'api-service', profiles: ADMINS, id: 'apiService' },
  { path: 'configuracoesbloqueio', profiles: TENANT_USERS, id: 'configuracoesbloqueio' },
  {
    path: 'kanban',
    profiles: TENANT_USERS,
    id: 'kanban',
    redirectTo: 'kanbans',
    children: leaves(['kanbans', 'tags'], 'kanban'),
  },
  {
    path: 'configuracoes',
    profiles: ADMINS,
    id: 'configuracoes',
    redirectTo: 'geral',
    children: leaves(
      [
        'geral',
        'webhooks',
        'typebot',
        'dialogflow',
        'chat-gpt',
        'lm',
        'ollama',
        'n8n',
        'dify',
        'lanes',
        'motivos',
        'meta',
        'variaveis',
        'sms',
        'hub',
        'wuzapi',
        'evolution',
        'smtp',
        'pagamentos',
        'sessoes',
      ],
      'configuracoes',
    ),
  },
  {
    path: 'configuracoesTenant',
    profiles: PLATFORM,
    id: 'configuracoesTenant',
    redirectTo: 'smtp-tenant',
    children: leaves(['smtp-tenant'], 'configuracoesTenant'),
  },
  {
    path: 'massa',
    profiles: TENANT_USERS,
    id: 'massa',
    redirectTo: 'template',
    children: leaves(['texto', 'textovariavel', 'sms', 'template', 'template-variavel'], 'massa'),
  },
  {
    path: 'grupo',
    profiles: TENANT_USERS,
    id: 'grupo',
    redirectTo: 'massagrupos',
    children: leaves(['banlist', 'wordlist', 'saudacao', 'despedida', 'massagrupos', 'massagrupos2', 'massausuarios'], 'grupo'),
  },
  {
    path: 'avaliacoes',
    profiles: SUPERVISORS,
    id: 'avaliacoes',
    redirectTo: 'listar',
    children: leaves(['listar', 'configurar'], 'avaliacoes'),
  },
  { path: 'campanhas', profiles: SUPERVISORS, id: 'campanhas' },
  { path: 'campanhas/:campanhaId', profiles: SUPERVISORS, id: 'campanhaContatos' },
  { path: 'chat-flow', profiles: SUPERVISORS, id: 'chatFlow' },
  { path: 'chat-flow/builder', profiles: SUPERVISORS, id: 'chatFlowBuilder' },
  { path: 'chat-privado', profiles: TENANT_USERS, id: 'chatPrivado' },
  {
    path: 'relatorios',
    profiles: SUPERVISORS,
    id: 'relatorios',
    children: leaves(
      [
        'estatisticas-atendimentos-usuarios',
        'lista-contatos',
        'contatos-por-etiquetas',
        'contatos-por-estado',
        'contatos-por-kanban',
        'contatos-por-carteira',
        'atendimentos-por-parametros',
      ],
      'relatorios',
    ),
  },
  {
    path: 'atendimento',
    profiles: TENANT_USERS,
    id: 'atendimento',
    name: 'atendimento',
    children: [
      { path: 'chats', id: 'atendimento/chats', name: 'chat-empty' },
      { path: 'contatos', id: 'atendimento/contatos' },
      // pageNumber is optional in the URL; the ticket list starts at DEFAULT_TICKET_PAGE.
      { path: ':ticketId/:pageNumber?', id: 'atendimento/chat', name: 'chat' },
    ],
  },
];

/** Absolute paths of the redirecting parents: '/kanban' -> '/kanban/kanbans', ... */
export const PARENT_REDIRECTS: Record<string, string> = Object.fromEntries(
  SHELL_ROUTES.filter((r) => r.redirectTo).map((r) => [`/${r.path}`, `/${r.path}/${r.redirectTo}`]),
);

export interface FlatShellRoute {
  path: string;
  id: string;
  name?: RouteName;
  profiles: readonly Profile[];
  /** Absolute path this route only redirects to (it has no screen of its own). */
  redirectTo?: string;
}

/** Every shell route flattened to its absolute path, with its profiles resolved (children inherit). */
export function flattenShellRoutes(
  routes: ShellRoute[] = SHELL_ROUTES,
  prefix = '',
  inherited?: readonly Profile[],
): FlatShellRoute[] {
  return routes.flatMap((route) => {
    const path = `${prefix}/${route.path}`;
    const profiles = route.profiles ?? inherited;
    // A route nobody may open would be a silent dead end; the table must say who it is for.
    if (!profiles) throw new Error(`Route '${path}' declares no profiles`);
    const redirectTo = route.redirectTo ? `${path}/${route.redirectTo}` : undefined;
    return [
      { path, id: route.id, name: route.name, profiles, redirectTo },
      ...flattenShellRoutes(route.children ?? [], path, profiles),
    ];
  });
}

const FLAT_ROUTES = flattenShellRoutes();

/** Whether a concrete pathname fits a route pattern (':param' segments, a trailing ':param?'). */
function fitsPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (have.length > want.length) return false;
  return want.every((segment, index) => {
    const value = have[index];
    if (segment.startsWith(':')) return value !== undefined || segment.endsWith('?');
    return value === segment;
  });
}

const routeByPath = new Map<string, FlatShellRoute | undefined>();

/**
 * The shell route a pathname opens, or undefined (not-found). Literal routes win over
 * parameterised ones ('/atendimento/chats' over '/atendimento/:ticketId'), as in the router.
 */
export function shellRouteOf(pathname: string): FlatShellRoute | undefined {
  if (routeByPath.has(pathname)) return routeByPath.get(pathname);
  const fits = FLAT_ROUTES.filter((route) => fitsPattern(route.path, pathname));
  const route = fits.find((r) => !r.path.includes(':')) ?? fits[0];
  // The table never changes: each pathname is matched once. (The side menu asks for each of its
  // items on every render: 40 items against the whole table, ~9 ms of a start-up render.)
  if (routeByPath.size < 500) routeByPath.set(pathname, route);
  return route;
}

/** Whether a profile may open a pathname; unknown paths are left to the not-found page. */
export function profileMayOpen(profile: Profile | null, pathname: string): boolean {
  const route = shellRouteOf(pathname);
  if (!route) return true;
  return profile !== null && route.profiles.includes(profile);
}

const NAMED_PATHS: Record<RouteName, string> = {
  login: PUBLIC_ROUTES.login,
  signup: PUBLIC_ROUTES.signup,
  'signup-confirm': PUBLIC_ROUTES.signupConfirm,
  reset: PUBLIC_ROUTES.reset,
  'home-dashboard': '/home',
  assinatura: '/assinatura',
  atendimento: '/atendimento',
  'chat-empty': '/atendimento/chats',
  chat: '/atendimento/:ticketId/:pageNumber?',
};

/**
 * The URL of a named route: `pathTo('chat', { ticketId: 12 }, { t: Date.now() })`. Optional
 * params that are not given drop out, required ones must be given.
 */
export function pathTo(
  name: RouteName,
  params: Record<string, string | number | undefined> = {},
  query: Record<string, string | number> = {},
): string {
  const path = NAMED_PATHS[name]
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const optional = segment.endsWith('?');
      const key = segment.slice(1, optional ? -1 : undefined);
      const value = params[key];
      if (value === undefined || value === '') {
        if (optional) return null;
        throw new Error(`Route '${name}' needs the parameter '${key}'`);
      }
      return encodeURIComponent(String(value));
    })
    .filter((segment): segment is string => segment !== null)
    .join('/');
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return search ? `${path}?${search}` : path;
}
