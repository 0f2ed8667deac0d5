import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';

/**
 * Blueprint's icon paths, loaded with one dynamic import per size. Blueprint's default loader
 * imports its loader module and then the paths module again for every icon name (about 1,400 at
 * start, each through the bundler's preload helper) and converts each name with a general
 * case-conversion library: measured at 300-500 ms of one start-up task (issue #13). This loader
 * imports each paths chunk once and looks names up directly.
 */
type PathsModule = Record<string, IconPaths | undefined>;

let standard: Promise<PathsModule> | null = null;
let large: Promise<PathsModule> | null = null;

const pathsOf = (size: IconSize): Promise<PathsModule> =>
  size === IconSize.STANDARD
    ? (standard ??= import('@blueprintjs/icons/lib/esm/generated/16px/paths') as Promise<unknown> as Promise<PathsModule>)
    : (large ??= import('@blueprintjs/icons/lib/esm/generated/20px/paths') as Promise<unknown> as Promise<PathsModule>);

/** The paths module's export name of an icon: 'add-row-top' -> 'AddRowTop' (Blueprint's own naming). */
export const iconExportName = (name: string): string =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

async function loadIconPaths(name: IconName, size: IconSize): Promise<IconPaths> {
  const paths = (await pathsOf(size))[iconExportName(name)];
  if (!paths) throw new Error(`no paths for icon '${name}'`);
  return paths;
}

/** Every later Icons.load() and every <Icon> that loads itself goes through this loader. */
export function installIconLoader(): void {
  Icons.setLoaderOptions({ loader: loadIconPaths });
}
