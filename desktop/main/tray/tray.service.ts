/**
 * The console's tray icon (issue #15, native): the unread count in its tooltip (and beside the
 * icon on macOS), a menu to open the console, to start it at login and to quit. Windows and most
 * Linux desktops have no dock badge, so the tray is where an agent with the window closed sees
 * that customers wrote. Pure: Electron's Tray, Menu and app are passed in.
 */

/** The parts of Electron's Tray used here. */
export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  /** macOS only: text beside the icon in the menu bar. */
  setTitle?(title: string): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayMenuItem {
  label: string;
  type?: 'normal' | 'checkbox' | 'separator';
  checked?: boolean;
  click?: () => void;
}

export interface TrayServiceOptions {
  createTray: () => TrayLike;
  buildMenu: (items: TrayMenuItem[]) => unknown;
  platform: NodeJS.Platform;
  /** Electron's app.getLoginItemSettings / setLoginItemSettings. */
  loginItem: { get(): { openAtLogin: boolean }; set(settings: { openAtLogin: boolean }): void };
  /** The agent's "do not disturb": no notification is shown while it is on. */
  doNotDisturb: { get(): boolean; set(on: boolean): void };
  openConsole: () => void;
  quit: () => void;
  /** The interface language of the operating system: pt* gets Portuguese, anything else English. */
  locale: string;
}

export interface TrayService {
  /** The unread count (the badge's): shown in the tooltip and, on macOS, beside the icon. */
  setUnread(count: number): void;
  destroy(): void;
}

const TEXT = {
  pt: {
    name: 'Atende',
    unread: (n: number) => (n === 1 ? '1 mensagem não lida' : `${n} mensagens não lidas`),
    open: 'Abrir o Atende',
    atLogin: 'Iniciar com o sistema',
    doNotDisturb: 'Não perturbe',
    muted: 'não perturbe',
    quit: 'Sair',
  },
  en: {
    name: 'Atende',
    unread: (n: number) => (n === 1 ? '1 unread message' : `${n} unread messages`),
    open: 'Open Atende',
    atLogin: 'Start at login',
    doNotDisturb: 'Do not disturb',
    muted: 'do not disturb',
    quit: 'Quit',
  },
};

export function trayTextFor(locale: string) {
  return /^pt\b/i.test(locale) ? TEXT.pt : TEXT.en;
}

export function createTrayService(options: TrayServiceOptions): TrayService {
  const text = trayTextFor(options.locale);
  const tray = options.createTray();
  let unread = 0;

  const render = () => {
    const muted = options.doNotDisturb.get() ? ` (${text.muted})` : '';
    tray.setToolTip(`${unread > 0 ? `${text.name}: ${text.unread(unread)}` : text.name}${muted}`);
    if (options.platform === 'darwin') tray.setTitle?.(unread > 0 ? String(Math.min(unread, 9999)) : '');
    // Rebuilt each time: the checkbox shows the login item as the system has it now (the user
    // may have changed it in the system settings).
    tray.setContextMenu(
      options.buildMenu([
        { label: text.open, click: options.openConsole },
        {
          label: text.atLogin,
          type: 'checkbox',
          checked: options.loginItem.get().openAtLogin,
          click: () => {
            options.loginItem.set({ openAtLogin: !options.loginItem.get().openAtLogin });
            render();
          },
        },
        {
          label: text.doNotDisturb,
          type: 'checkbox',
          checked: options.doNotDisturb.get(),
          click: () => {
            options.doNotDisturb.set(!options.doNotDisturb.get());
            render();
          },
        },
        { label: '', type: 'separator' },
        { label: text.quit, click: options.quit },
      ]),
    );
  };

  tray.on('click', options.openConsole);
  render();

  return {
    setUnread(count) {
      const next = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
      if (next === unread) return;
      unread = next;
      render();
    },
    destroy: () => tray.destroy(),
  };
}
