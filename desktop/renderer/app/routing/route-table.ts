/**
 * Every route of spec section 2, as data. The router, the guards, the menus and the i18n key
 * check all read this one table, so a path is spelled once.
 *
 * `id` names the i18n title (`routes.<id>`); `name` is the spec's route name where it has one.
 * A route without a built screen renders the "under construction" page (never a fake screen).
 */

export interface ShellRoute {
  /** Path relative to its parent ('' for an index-like parent that only redirects). */
  path: string;
  id: string;
  name?: RouteName;
  /** Child path the parent redirects to (spec: "/kanban redirects to /kanban/kanbans"). */
  redirectTo?: string;
  children?: ShellRoute[];
}

export type RouteName = 'login' | 'signup' | 'reset' | 'home-dashboard' | 'assinatura' | 'atendimento' | 'chat' | 'chat-empty';

/** Reachable without a token (spec section 2 and 6). */
export const PUBLIC_ROUTES = {
  login: '/login',
  signup: '/signup',
  reset: '/reset/:token',
} as const;

/** Query flag that lets an external flow (desktop hand-off, invitation link) set the token. */
export const TOKEN_SETUP_QUERY_FLAG = 'tokenSetup';

const leaves = (ids: string[], idPrefix: string): ShellRoute[] => ids.map((path) => ({ path, id: `${idPrefix}/${path}` }));

export const SHELL_ROUTES: ShellRoute[] = [
  { path: 'tenants', id: 'tenants' },
  { path: 'tenantsPk', id: 'tenantsPk' },
  { path: 'tenantsQueue', id: 'tenantsQueue' },
  { path: 'notificacao', id: 'notificacao' },
  { path: 'terminal', id: 'terminal' },
  { path: 'customizar', id: 'customizar' },
  { path: 'atualizar', id: 'atualizar' },
  { path: 'home', id: 'home', name: 'home-dashboard' },
  { path: 'painel-atendimentos', id: 'painelAtendimentos' },
  { path: 'sessoes', id: 'sessoes' },
  { path: 'sessoestenants', id: 'sessoestenants' },
  { path: 'pagamentostenants', id: 'pagamentostenants' },
  { path: 'contatos', id: 'contatos' },
  { path: 'usuarios', id: 'usuarios' },
  { path: 'usuariotenants', id: 'usuariotenants' },
  { path: 'auto-resposta', id: 'autoResposta' },
  { path: 'mensagens-rapidas', id: 'mensagensRapidas' },
  { path: 'filas', id: 'filas' },
  { path: 'planos', id: 'planos' },
  { path: 'assinatura', id: 'assinatura', name: 'assinatura' },
  { path: 'tenantApi', id: 'tenantApi' },
  { path: 'equipes', id: 'equipes' },
  { path: 'tarefas', id: 'tarefas' },
  { path: 'notas', id: 'notas' },
  { path: 'lanes', id: 'lanes' },
  { path: 'etiquetas', id: 'etiquetas' },
  { path: 'agendamentos', id: 'agendamentos' },
  { path: 'aniversarios', id: 'aniversarios' },
  { path: 'fechamento', id: 'fechamento' },
  { path: 'protocolos', id: 'protocolos' },
  { path: 'wavoip', id: 'wavoip' },
  { path: 'horario-atendimento', id: 'horarioAtendimento' },
  { path: 'api-service', id: 'apiService' },
  { path: 'configuracoesbloqueio', id: 'configuracoesbloqueio' },
  { path: 'kanban', id: 'kanban', redirectTo: 'kanbans', children: leaves(['kanbans', 'tags'], 'kanban') },
  {
    path: 'configuracoes',
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
    id: 'configuracoesTenant',
    redirectTo: 'smtp-tenant',
    children: leaves(['smtp-tenant'], 'configuracoesTenant'),
  },
  {
    path: 'massa',
    id: 'massa',
    redirectTo: 'template',
    children: leaves(['texto', 'textovariavel', 'sms', 'template', 'template-variavel'], 'massa'),
  },
  {
    path: 'grupo',
    id: 'grupo',
    redirectTo: 'massagrupos',
    children: leaves(['banlist', 'wordlist', 'saudacao', 'despedida', 'massagrupos', 'massagrupos2', 'massausuarios'], 'grupo'),
  },
  { path: 'avaliacoes', id: 'avaliacoes', redirectTo: 'listar', children: leaves(['listar', 'configurar'], 'avaliacoes') },
  { path: 'campanhas', id: 'campanhas' },
  { path: 'campanhas/:campanhaId', id: 'campanhaContatos' },
  { path: 'chat-flow', id: 'chatFlow' },
  { path: 'chat-flow/builder', id: 'chatFlowBuilder' },
  { path: 'chat-privado', id: 'chatPrivado' },
  {
    path: 'relatorios',
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

/** Every shell route flattened to its absolute path, for tests and the i18n key check. */
export function flattenShellRoutes(
  routes: ShellRoute[] = SHELL_ROUTES,
  prefix = '',
): { path: string; id: string; name?: RouteName }[] {
  return routes.flatMap((route) => {
    const path = `${prefix}/${route.path}`;
    return [{ path, id: route.id, name: route.name }, ...flattenShellRoutes(route.children ?? [], path)];
  });
}

const NAMED_PATHS: Record<RouteName, string> = {
  login: PUBLIC_ROUTES.login,
  signup: PUBLIC_ROUTES.signup,
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
