import { loadConfig } from './config';
import { startServer } from './server';

/** `npm start`: one process with HTTP, sockets and jobs. Ctrl-C closes everything cleanly. */
async function main() {
  const config = loadConfig();
  const running = await startServer(config);
  const { logger } = running.deps;
  const shown = config.publicUrl.replace(/:\d+$/, `:${running.port}`);
  logger.info({ url: shown, database: config.databaseUrl ? 'postgresql' : 'embedded', jobs: running.deps.jobs.driver }, 'server started');
  console.log(`\nAtende is running: open ${shown}\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await running.close();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
