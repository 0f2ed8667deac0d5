import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rule between the providers and the messaging domain (issue #14 item 10,
 * docs/architecture.md "Providers and the messaging domain"): files under server/src/channels
 * import neither server/src/modules nor server/src/deps.ts, not even for a type; they talk to the
 * domain through channels/channel-port.ts. So no import cycle can pass through a provider.
 * Imports are read from the source text (relative specifiers, `import` and `export ... from`,
 * type-only ones included).
 */
const SRC = path.resolve(import.meta.dirname);
const CHANNELS = path.join(SRC, 'channels');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.includes('test-support') ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => path.resolve(path.dirname(file), m[1] ?? m[2]));
}

function resolveFile(target: string, files: Set<string>): string | null {
  for (const candidate of [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')]) if (files.has(candidate)) return candidate;
  return files.has(target) ? target : null;
}

describe('providers and the messaging domain', () => {
  const all = new Set(sourceFiles(SRC));
  const providers = [...all].filter((f) => f.startsWith(CHANNELS + path.sep));

  it('finds the provider files and their imports', () => {
    // Guards the test itself: an empty file list or a regex that matches nothing would pass vacuously.
    expect(providers.length).toBeGreaterThan(20);
    expect(importsOf(path.join(CHANNELS, 'adapter-context.ts'))).toContain(path.join(CHANNELS, 'channel-port'));
  });

  it('no provider file imports server/src/modules or server/src/deps.ts', () => {
    const offending = providers.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(path.join(SRC, 'modules') + path.sep) || target === path.join(SRC, 'deps'))
        .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(offending).toEqual([]);
  });

  it('no import cycle passes through a provider file', () => {
    const edges = new Map<string, string[]>();
    for (const file of all) edges.set(file, importsOf(file).flatMap((t) => resolveFile(t, all) ?? []));
    // A provider is in a cycle when it can reach itself.
    const cyclic: string[] = [];
    for (const start of providers) {
      const seen = new Set<string>();
      const stack = [...(edges.get(start) ?? [])];
      while (stack.length) {
        const next = stack.pop()!;
        if (next === start) {
          cyclic.push(path.relative(SRC, start));
          break;
        }
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...(edges.get(next) ?? []));
      }
    }
    expect(cyclic).toEqual([]);
  });
});
