import type { i18n as I18n } from 'i18next';

/**
 * The running app's i18next instance, for code outside React (HTTP base query, session
 * controller). Set once by main.tsx before anything renders.
 */
let instance: I18n | null = null;

export const setAppI18n = (value: I18n): void => {
  instance = value;
};

export const translate = (key: string, options?: { defaultValue?: string } & Record<string, unknown>): string =>
  instance ? String(instance.t(key, options)) : key;

export const appI18n = (): I18n | null => instance;
