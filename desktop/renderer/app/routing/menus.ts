import type { Profile } from '@shared/profiles';
import { profileMayOpen } from './route-table';

/**
 * Menus by profile (spec section 2, "Menus by profile"). Each item links to its spec route;
 * `labelKey` is the i18n key of the visible text. Who sees an item is not written here: it is
 * the `profiles` of the item's route in route-table.ts, the same list the router guard enforces.
 */
export interface MenuItem {
  id: string;
  to: string;
  labelKey: string;
  icon: string;
}

export interface MenuSection {
  id: 'main' | 'supervisor' | 'admin' | 'superadmin' | 'blocked';
  titleKey: string;
  items: MenuItem[];
}

const MAIN: MenuSection = {
  id: 'main',
  titleKey: 'menu.sections.main',
  items: [
    { id: 'dashboard', to: '/home', labelKey: 'menu.dashboard', icon: 'dashboard' },
    { id: 'tickets', to: '/atendimento', labelKey: 'menu.tickets', icon: 'chat' },
    { id: 'contacts', to: '/contatos', labelKey: 'menu.contacts', icon: 'people' },
    { id: 'bulkSending', to: '/massa', labelKey: 'menu.bulkSending', icon: 'send-message' },
    { id: 'groups', to: '/grupo', labelKey: 'menu.groups', icon: 'group-objects' },
    { id: 'privateChat', to: '/chat-privado', labelKey: 'menu.privateChat', icon: 'comment' },
    { id: 'kanban', to: '/kanban', labelKey: 'menu.kanban', icon: 'column-layout' },
    { id: 'tasks', to: '/tarefas', labelKey: 'menu.tasks', icon: 'tick-circle' },
  ],
};

const SUPERVISOR: MenuSection = {
  id: 'supervisor',
  titleKey: 'menu.sections.supervisor',
  items: [
    { id: 'channels', to: '/sessoes', labelKey: 'menu.channels', icon: 'mobile-phone' },
    { id: 'reports', to: '/relatorios', labelKey: 'menu.reports', icon: 'timeline-bar-chart' },
    { id: 'queues', to: '/filas', labelKey: 'menu.queues', icon: 'list' },
    { id: 'teams', to: '/equipes', labelKey: 'menu.teams', icon: 'team' },
    { id: 'quickMessages', to: '/mensagens-rapidas', labelKey: 'menu.quickMessages', icon: 'flash' },
    { id: 'chatbot', to: '/chat-flow', labelKey: 'menu.chatbot', icon: 'flow-branch' },
    { id: 'autoReply', to: '/auto-resposta', labelKey: 'menu.autoReply', icon: 'automatic-updates' },
    { id: 'schedules', to: '/agendamentos', labelKey: 'menu.schedules', icon: 'calendar' },
    { id: 'birthdays', to: '/aniversarios', labelKey: 'menu.birthdays', icon: 'predictive-analysis' },
    { id: 'closingMessages', to: '/fechamento', labelKey: 'menu.closingMessages', icon: 'log-out' },
    { id: 'tags', to: '/etiquetas', labelKey: 'menu.tags', icon: 'tag' },
    { id: 'notes', to: '/notas', labelKey: 'menu.notes', icon: 'annotation' },
    { id: 'protocols', to: '/protocolos', labelKey: 'menu.protocols', icon: 'numbered-list' },
    { id: 'evaluations', to: '/avaliacoes', labelKey: 'menu.evaluations', icon: 'star' },
    { id: 'businessHours', to: '/horario-atendimento', labelKey: 'menu.businessHours', icon: 'time' },
    { id: 'campaigns', to: '/campanhas', labelKey: 'menu.campaigns', icon: 'announcement' },
  ],
};

const ADMIN: MenuSection = {
  id: 'admin',
  titleKey: 'menu.sections.admin',
  items: [
    { id: 'ticketPanel', to: '/painel-atendimentos', labelKey: 'menu.ticketPanel', icon: 'panel-stats' },
    { id: 'users', to: '/usuarios', labelKey: 'menu.users', icon: 'person' },
    { id: 'callLog', to: '/wavoip', labelKey: 'menu.callLog', icon: 'phone' },
    { id: 'api', to: '/api-service', labelKey: 'menu.api', icon: 'code' },
    { id: 'settings', to: '/configuracoes', labelKey: 'menu.settings', icon: 'cog' },
    { id: 'tenantSubscription', to: '/assinatura', labelKey: 'menu.tenantSubscription', icon: 'id-number' },
  ],
};

const SUPERADMIN: MenuSection = {
  id: 'superadmin',
  titleKey: 'menu.sections.superadmin',
  items: [
    { id: 'subscription', to: '/assinatura', labelKey: 'menu.subscription', icon: 'id-number' },
    { id: 'tenants', to: '/tenants', labelKey: 'menu.tenants', icon: 'office' },
    { id: 'tenantUsers', to: '/usuariotenants', labelKey: 'menu.tenantUsers', icon: 'people' },
    { id: 'email', to: '/configuracoesTenant', labelKey: 'menu.email', icon: 'envelope' },
    { id: 'plans', to: '/planos', labelKey: 'menu.plans', icon: 'box' },
    { id: 'payments', to: '/pagamentostenants', labelKey: 'menu.payments', icon: 'dollar' },
    { id: 'tenantChannels', to: '/sessoestenants', labelKey: 'menu.tenantChannels', icon: 'mobile-phone' },
    { id: 'tenantApi', to: '/tenantApi', labelKey: 'menu.tenantApi', icon: 'code' },
    { id: 'update', to: '/atualizar', labelKey: 'menu.update', icon: 'cloud-upload' },
    { id: 'customize', to: '/customizar', labelKey: 'menu.customize', icon: 'style' },
    { id: 'notification', to: '/notificacao', labelKey: 'menu.notification', icon: 'notifications' },
    { id: 'jobQueues', to: '/tenantsQueue', labelKey: 'menu.jobQueues', icon: 'layers' },
    { id: 'internalData', to: '/tenantsPk', labelKey: 'menu.internalData', icon: 'database' },
    { id: 'terminal', to: '/terminal', labelKey: 'menu.terminal', icon: 'console' },
  ],
};

const BLOCKED: MenuSection = {
  id: 'blocked',
  titleKey: 'menu.sections.blocked',
  items: [{ id: 'blockedSettings', to: '/configuracoesbloqueio', labelKey: 'menu.settings', icon: 'cog' }],
};

const TENANT_SECTIONS: MenuSection[] = [MAIN, SUPERVISOR, ADMIN];
const PLATFORM_SECTIONS: MenuSection[] = [SUPERADMIN];

/**
 * The sections a profile sees, in display order: the items whose route the profile may open
 * (route-table.ts), sections left empty dropped. The super administrator sees the platform's
 * section, the tenants' profiles the tenant sections (a route both may open, /assinatura, is in
 * one section of each). A blocked tenant sees its settings only.
 */
export function menuFor(profile: Profile | null, options: { tenantBlocked?: boolean } = {}): MenuSection[] {
  if (!profile) return [];
  if (options.tenantBlocked && profile !== 'superadmin') return [BLOCKED];
  return (profile === 'superadmin' ? PLATFORM_SECTIONS : TENANT_SECTIONS).map((section) => ({
    ...section,
    items: section.items.filter((item) => profileMayOpen(profile, item.to)),
  })).filter((section) => section.items.length > 0);
}

export const ALL_MENU_SECTIONS: MenuSection[] = [MAIN, SUPERVISOR, ADMIN, SUPERADMIN, BLOCKED];
