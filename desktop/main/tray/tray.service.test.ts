import { describe, expect, it, vi } from 'vitest';
import { createTrayService, trayTextFor, type TrayLike, type TrayMenuItem } from './tray.service';

function setup(platform: NodeJS.Platform = 'win32', locale = 'pt-BR') {
  const tray = { setToolTip: vi.fn(), setContextMenu: vi.fn(), setTitle: vi.fn(), on: vi.fn(), destroy: vi.fn() } satisfies TrayLike;
  let openAtLogin = false;
  let muted = false;
  const doNotDisturb = { get: () => muted, set: vi.fn((on: boolean) => void (muted = on)) };
  const loginItem = { get: () => ({ openAtLogin }), set: vi.fn((s: { openAtLogin: boolean }) => void (openAtLogin = s.openAtLogin)) };
  const openConsole = vi.fn();
  const quit = vi.fn();
  const service = createTrayService({
    createTray: () => tray,
    buildMenu: (items) => items,
    platform,
    loginItem,
    doNotDisturb,
    openConsole,
    quit,
    locale,
  });
  const menu = () => tray.setContextMenu.mock.calls.at(-1)![0] as TrayMenuItem[];
  return { service, tray, loginItem, doNotDisturb, openConsole, quit, menu };
}

describe('tray', () => {
  it('shows the unread count in the tooltip, in Portuguese for a Portuguese system', () => {
    const { service, tray } = setup();
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Atende');
    service.setUnread(3);
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Atende: 3 mensagens não lidas');
    service.setUnread(1);
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Atende: 1 mensagem não lida');
    service.setUnread(-4);
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Atende');
    expect(tray.setTitle).not.toHaveBeenCalled(); // macOS only
  });

  it('puts the count beside the icon on macOS, in English elsewhere than Portuguese', () => {
    const { service, tray } = setup('darwin', 'en-US');
    service.setUnread(12.8);
    expect(tray.setTitle).toHaveBeenLastCalledWith('12');
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Atende: 12 unread messages');
    expect(trayTextFor('pt-PT').quit).toBe('Sair');
  });

  it('opens the console on click and from the menu, toggles start at login, quits', () => {
    const { tray, menu, openConsole, quit, loginItem } = setup();
    (tray.on.mock.calls[0][1] as () => void)();
    expect(openConsole).toHaveBeenCalledTimes(1);
    menu()[0].click!();
    expect(openConsole).toHaveBeenCalledTimes(2);
    expect(menu()[1]).toMatchObject({ label: 'Iniciar com o sistema', type: 'checkbox', checked: false });
    menu()[1].click!();
    expect(loginItem.set).toHaveBeenCalledWith({ openAtLogin: true });
    expect(menu()[1].checked).toBe(true);
    menu()[4].click!();
    expect(quit).toHaveBeenCalled();
  });

  it('switches do not disturb from the menu and says so in the tooltip', () => {
    const { service, tray, menu, doNotDisturb } = setup();
    expect(menu()[2]).toMatchObject({ label: 'Não perturbe', type: 'checkbox', checked: false });
    menu()[2].click!();
    expect(doNotDisturb.set).toHaveBeenCalledWith(true);
    expect(menu()[2].checked).toBe(true);
    service.setUnread(2);
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Atende: 2 mensagens não lidas (não perturbe)');
  });
});
