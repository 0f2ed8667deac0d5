import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, isSettingKey } from '../settings';
import { SETTING_VALUE_SCHEMAS, UpdateSettingSchema, findSettingsConflict } from './settings';

describe('tenant settings rules', () => {
  it('has a value rule for every default key, and every default passes it', () => {
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
      expect(isSettingKey(key)).toBe(true);
      expect(SETTING_VALUE_SCHEMAS[key as keyof typeof DEFAULT_SETTINGS].safeParse(value).success).toBe(true);
    }
    expect(isSettingKey('toString')).toBe(false);
  });

  it('accepts 0 and the auto-close options only', () => {
    const rule = SETTING_VALUE_SCHEMAS.autoCloseTicketsMinutes;
    expect(['0', '10', '60', '1440', '7200', '14400'].every((v) => rule.safeParse(v).success)).toBe(true);
    expect(['15', '-1', '', 'dez'].some((v) => rule.safeParse(v).success)).toBe(false);
    expect(UpdateSettingSchema.parse({ value: 60 })).toEqual({ value: '60' });
  });

  it('finds the conflict only when the three ticket-view settings are all enabled', () => {
    expect(findSettingsConflict({})).toBeNull();
    expect(findSettingsConflict({ NotViewAssignedTickets: 'enabled', NotViewTicketsChatBot: 'enabled' })).toBeNull();
    const conflict = findSettingsConflict({
      NotViewAssignedTickets: 'enabled',
      NotViewTicketsChatBot: 'enabled',
      nullticket: 'enabled',
    });
    expect(conflict?.keys).toEqual(['NotViewAssignedTickets', 'NotViewTicketsChatBot', 'nullticket']);
    expect(conflict?.message).toMatch(/não podem ser ativadas ao mesmo tempo/);
  });
});
