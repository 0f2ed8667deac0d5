/* Build configuration shared by the web build (vite.config.ts) and the desktop build (electron.vite.config.ts); not renderer code. */

/**
 * zod and the module that turns its eval probe off (app/zod-without-eval.ts) travel in one chunk,
 * so `z.config({ jitless: true })` runs before any other chunk builds a schema, whichever chunks
 * the screens split into: zod probes `new Function` when an object schema is built, and the CSP
 * reports that. (Left to the automatic splitting, a new lazy screen moved zod into a chunk of its
 * own and the setting behind modules that build schemas at load.)
 */
export const ZOD_CHUNK = { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]app[\\/]zod-without-eval\.ts$/ };
