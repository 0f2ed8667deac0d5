import { DEFAULT_SETTINGS } from '@shared/settings';
import { describe, expect, it } from 'vitest';
import { conflictOfChange, settingValues } from './settings-conflict';

describe('settingValues', () => {
  it('fills the keys the server did not list with their defaults and ignores unknown keys', () => {
    const values = settingValues([
      { key: 'nullticket', value: 'enabled' },
      { key: 'somethingElse', value: 'x' },
    ]);
    expect(values.nullticket).toBe('enabled');
    expect(values.autoCloseTicketsMinutes).toBe('0');
    expect(Object.keys(values).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
  });
});

describe('conflictOfChange', () => {
  const two = settingValues([
    { key: 'NotViewAssignedTickets', value: 'enabled' },
    { key: 'NotViewTicketsChatBot', value: 'enabled' },
  ]);

  it('refuses the third of the exclusive ticket-view settings', () => {
    expect(conflictOfChange(two, 'nullticket', 'enabled')).toEqual([
      'NotViewAssignedTickets',
      'NotViewTicketsChatBot',
      'nullticket',
    ]);
  });

  it('allows any two of them, other settings, and turning one off', () => {
    expect(conflictOfChange(settingValues([]), 'nullticket', 'enabled')).toBeNull();
    expect(conflictOfChange(two, 'mostrarGruposParaTodos', 'enabled')).toBeNull();
    expect(conflictOfChange(two, 'NotViewTicketsChatBot', 'disabled')).toBeNull();
    const withNull = settingValues([
      { key: 'NotViewAssignedTickets', value: 'enabled' },
      { key: 'nullticket', value: 'enabled' },
    ]);
    expect(conflictOfChange(withNull, 'NotViewTicketsChatBot', 'enabled')).not.toBeNull();
    expect(conflictOfChange(withNull, 'autoCloseTicketsMinutes', '60')).toBeNull();
  });
});
