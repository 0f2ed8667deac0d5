/** Types of scripts/desktop-package.mjs for the tests that import it. */
export const DESKTOP_RUNTIME_DEPENDENCIES: string[];
export function desktopAppManifest(
  rootManifest: { version: string; main: string; license?: string },
  installedVersion: (name: string) => string,
): {
  name: string;
  productName: string;
  version: string;
  main: string;
  type: 'module';
  private: true;
  dependencies: Record<string, string>;
};
export function stageDesktopApp(target?: string): string;
