/**
 * Sandboxed preload: runs with contextIsolation, so the page receives only the object handed to
 * contextBridge. Bundled to CommonJS by electron-vite because sandboxed preloads cannot load ESM.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopApi, readBridgeArguments } from './desktop-api.preload';

contextBridge.exposeInMainWorld(
  'desktop',
  createDesktopApi({ ipcRenderer, platform: process.platform, ...readBridgeArguments(process.argv) }),
);
