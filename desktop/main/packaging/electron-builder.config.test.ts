import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';

/**
 * electron-builder.yml is checked against the schema that ships with the installed
 * electron-builder (app-builder-lib/scheme.json), and its security-relevant choices are pinned,
 * so a typo or a loosened setting fails here instead of in a release job on another machine.
 */
const require = createRequire(import.meta.url);
// js-yaml comes with electron-builder; it ships no types, so its one function is typed here.
const yaml = require('js-yaml') as { load(text: string): unknown };

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const configText = readFileSync(path.join(repoRoot, 'electron-builder.yml'), 'utf8');
const config = yaml.load(configText) as Record<string, any>;
const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

function targetNames(target: unknown): string[] {
  const list = Array.isArray(target) ? target : [target];
  return list.map((entry) => (typeof entry === 'string' ? entry : (entry as { target: string }).target));
}

describe('electron-builder.yml', () => {
  it('is valid against the installed electron-builder schema', () => {
    // strict: false because the schema uses electron-builder's own keywords (e.g. "typeof").
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('identifies the app and writes installers under dist/desktop', () => {
    expect(config.appId).toBe('com.atende.desktop');
    expect(config.productName).toBe('Atende');
    expect(config.directories).toEqual({ output: 'dist/desktop', buildResources: 'build', app: 'dist/desktop-app' });
  });

  it('packages the staged app: the three bundles and the native module, no server code, web build or sources', () => {
    expect(config.directories.app).toBe('dist/desktop-app');
    const included = (config.files as string[]).filter((pattern) => !pattern.startsWith('!'));
    expect(included).toEqual(['out/main/**/*', 'out/preload/**/*', 'out/renderer/**/*', 'package.json', 'node_modules/**/*']);
    expect(included.some((pattern) => /server|shared|migrations|desktop\//.test(pattern))).toBe(false);
    // The native module is rebuilt for Electron in the staged folder and loaded from outside the asar.
    expect(config.npmRebuild).toBe(true);
    expect(config.asarUnpack).toEqual(['**/*.node']);
  });

  it("stages a package.json whose only dependencies are the main process's native modules, at their installed versions", async () => {
    const { desktopAppManifest, DESKTOP_RUNTIME_DEPENDENCIES } = await import('../../../scripts/desktop-package.mjs');
    const manifest = desktopAppManifest(packageJson, (name: string) => require(`${name}/package.json`).version);
    expect(Object.keys(manifest.dependencies)).toEqual(DESKTOP_RUNTIME_DEPENDENCIES);
    expect(manifest.dependencies['better-sqlite3-multiple-ciphers']).toBe(require('better-sqlite3-multiple-ciphers/package.json').version);
    expect(manifest).toMatchObject({ version: packageJson.version, main: 'out/main/index.js', type: 'module', private: true });
    // What main imports from node_modules unbundled is exactly what the staged app ships.
    const viteConfig = readFileSync(path.join(repoRoot, 'electron.vite.config.ts'), 'utf8');
    const externals = JSON.parse(viteConfig.match(/const NATIVE_EXTERNALS = (\[[^\]]*\])/)![1].replace(/'/g, '"'));
    expect(externals).toEqual(DESKTOP_RUNTIME_DEPENDENCIES);
  });

  it('starts the entry electron-vite builds, consistently with package.json', () => {
    expect(config.extraMetadata.main).toBe('out/main/index.js');
    expect(packageJson.main).toBe('out/main/index.js');
  });

  it('builds Windows NSIS (assisted), macOS dmg+zip and Linux AppImage+deb', () => {
    expect(targetNames(config.win.target)).toEqual(['nsis']);
    expect(config.nsis.oneClick).toBe(false);
    expect(targetNames(config.mac.target)).toEqual(['dmg', 'zip']);
    expect(targetNames(config.linux.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux.category).toBe('Office');
    expect(config.linux.maintainer).toMatch(/<.+@.+>/);
  });

  it('signs macOS with the hardened runtime, our entitlements and notarisation', () => {
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.gatekeeperAssess).toBe(false);
    expect(config.mac.entitlements).toBe('build/entitlements.mac.plist');
    expect(config.mac.notarize).toBe(true);
    expect(config.mac.extendInfo.NSMicrophoneUsageDescription).toBeTruthy();
    const entitlements = readFileSync(path.join(repoRoot, 'build/entitlements.mac.plist'), 'utf8');
    const keys = [...entitlements.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
    // Least privilege: V8's JIT and the microphone, nothing that lets foreign code into the
    // signed process (disable-library-validation, allow-dyld-environment-variables ...).
    expect(keys.sort()).toEqual(['com.apple.security.cs.allow-jit', 'com.apple.security.device.audio-input']);
  });

  it('keeps signing secrets out of the file', () => {
    for (const key of ['cscLink', 'cscKeyPassword']) {
      expect(config).not.toHaveProperty(key);
      expect(config.mac).not.toHaveProperty(key);
      expect(config.win).not.toHaveProperty(key);
    }
    expect(configText).not.toMatch(/password\s*:/i);
    expect(configText).not.toMatch(/BEGIN (RSA |ENCRYPTED )?PRIVATE KEY/);
  });

  it('publishes a generic https feed taken from the environment', () => {
    expect(config.publish).toEqual([{ provider: 'generic', url: '${env.UPDATE_FEED_URL}', channel: 'latest' }]);
  });

  it('registers the atende:// deep-link scheme', () => {
    expect(config.protocols).toEqual([{ name: 'Atende', schemes: ['atende'] }]);
  });

  it('flips the Electron fuses that turn the binary into a general-purpose runtime', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('has a real PNG icon of at least 512x512 in build/', () => {
    const png = readFileSync(path.join(repoRoot, 'build/icon.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(512);
  });
});
