/* eslint-disable no-restricted-imports -- this test runs in Node (vitest) and reads the renderer sources from disk; it is not renderer code. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Resource, ResourceLanguage } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@shared/errors';
import { LOCALES } from '@shared/i18n/locales';
import { ALL_MENU_SECTIONS } from '../app/routing/menus';
import { flattenShellRoutes } from '../app/routing/route-table';
import { buildResources } from './i18n';

/**
 * Every key the renderer asks for must exist in pt-br (default) and en (fallback). Keys are
 * found by scanning the source for t('...') calls and for `...Key: '...'` table entries; keys
 * built at run time (routes, menus, profiles, languages, errors) are checked from their tables.
 */
const RENDERER = path.resolve(import.meta.dirname, '..');
const LOCALES_DIR = path.resolve(import.meta.dirname, '../../../shared/i18n/locales');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function keysInSource(): Set<string> {
  const keys = new Set<string>();
  const patterns = [
    /\bt\(\s*['"]([\w./-]+)['"]/g,
    /\b\w*Key:\s*['"]([a-z][\w./-]*\.[\w./-]+)['"]/g,
    /\btranslate\(\s*['"]([\w./-]+)['"]/g,
  ];
  for (const file of sourceFiles(RENDERER)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) keys.add(match[1]);
  }
  return keys;
}

function dynamicKeys(): string[] {
  return [
    ...flattenShellRoutes().map((route) => `routes.${route.id}`),
    ...ALL_MENU_SECTIONS.flatMap((section) => [section.titleKey, ...section.items.map((item) => item.labelKey)]),
    ...['user', 'super', 'admin', 'superadmin'].map((profile) => `profiles.${profile}`),
    ...LOCALES.map((locale) => `languages.${locale}`),
  ];
}

function lookup(resource: ResourceLanguage, key: string): unknown {
  // i18next plural forms: `key` is present when `key_one` / `key_other` are.
  const tree = resource.translation as Record<string, unknown>;
  const parts = key.split('.');
  let node: unknown = tree;
  for (const [index, part] of parts.entries()) {
    if (!node || typeof node !== 'object') return undefined;
    const record = node as Record<string, unknown>;
    if (index === parts.length - 1 && record[part] === undefined && record[`${part}_other`] !== undefined)
      return record[`${part}_other`];
    node = record[part];
  }
  return node;
}

function leafKeys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}

describe('i18n keys', async () => {
  const resources: Resource = await buildResources();
  const used = [...keysInSource(), ...dynamicKeys()];

  it('finds the keys used in the source', () => {
    expect(used).toContain('auth.loginRequired');
    expect(used).toContain('auth.captcha.required');
    expect(used.length).toBeGreaterThan(100);
  });

  for (const locale of ['pt-br', 'en'] as const) {
    it(`has every used key in ${locale}`, () => {
      const missing = used.filter((key) => typeof lookup(resources[locale], key) !== 'string');
      expect(missing).toEqual([]);
    });
  }

  it('has a Portuguese text for every server error code (from shared/errors)', () => {
    const missing = Object.keys(ERROR_CODES).filter((code) => typeof lookup(resources['pt-br'], `errors.${code}`) !== 'string');
    expect(missing).toEqual([]);
  });

  // Error codes are added on the server side first; until en-us has the English text the
  // toast shows the Portuguese one (error-mapper's defaultValue), so they are compared apart.
  const withoutErrorCodes = (keys: string[]) => keys.filter((key) => !(key.startsWith('errors.') && key.slice(7) in ERROR_CODES));

  it('keeps pt-br and en-us with the same keys (both complete)', () => {
    const ptBr = new Set(withoutErrorCodes(leafKeys(resources['pt-br'].translation)));
    const enUs = new Set(withoutErrorCodes(leafKeys(resources['en-us'].translation)));
    expect([...ptBr].filter((key) => !enUs.has(key))).toEqual([]);
    expect([...enUs].filter((key) => !ptBr.has(key))).toEqual([]);
  });

  it('ships a valid file for each of the 11 locales, holding only known keys', () => {
    const known = new Set([
      ...leafKeys(resources['en-us'].translation),
      ...Object.keys(ERROR_CODES).map((code) => `errors.${code}`),
    ]);
    for (const locale of LOCALES) {
      const file = JSON.parse(readFileSync(path.join(LOCALES_DIR, `${locale}.json`), 'utf8'));
      const unknown = leafKeys(file).filter((key) => !known.has(key));
      expect(unknown, locale).toEqual([]);
    }
  });

  it('keeps the texts the spec quotes', () => {
    const pt = (key: string) => lookup(resources['pt-br'], key);
    expect(pt('auth.loginRequired')).toBe('Necessário realizar login');
    expect(pt('auth.captcha.required')).toBe('Por favor, valide o CAPTCHA antes de continuar.');
    expect(pt('auth.loginSuccess')).toBe('Login sucess!');
    expect(pt('auth.recovery.sent')).toBe('E-mail de recuperação de senha enviado.');
    expect(pt('auth.recovery.failed')).toBe('Erro ao solicitar redefinição de senha.');
    expect(pt('auth.reset.mismatch')).toBe('As senhas não coincidem.');
    expect(pt('auth.reset.success')).toBe('Senha redefinida com sucesso!');
    expect(pt('auth.reset.failed')).toBe('Erro ao redefinir a senha.');
    expect(pt('signup.fillAllFields')).toBe('Preencha todos os campos!');
    expect(pt('errors.unidentified')).toBe('Ocorreu um erro não identificado.');
    expect(pt('errors.ERR_INVALID_CREDENTIALS')).toBe('Informe usuário e senha corretamente.');
  });
});
