/** Build-time values electron-vite exposes to the main process (MAIN_VITE_* from env or .env). */
interface ImportMetaEnv {
  /** The server this build talks to, e.g. https://app.example.com. */
  readonly MAIN_VITE_SERVER_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
