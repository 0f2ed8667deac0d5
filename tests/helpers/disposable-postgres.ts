import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of a test's own (fault suite, fault benchmark), so it can be restarted
 * under load without touching the suite's server: initdb in a temporary folder, started with
 * pg_ctl on a given port, trust authentication on 127.0.0.1. PostgreSQL refuses to run as root,
 * so as root the binaries run as the `postgres` OS user (runuser) in a folder it owns.
 * PG_BIN_DIR overrides where the binaries are (default /usr/lib/postgresql/15/bin).
 */
export const PG_BIN_DIR = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

const isRoot = () => process.getuid?.() === 0;

/** Undefined when a cluster can be started here, else why not (for the skip message). */
export function postgresUnavailable(): string | undefined {
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(path.join(PG_BIN_DIR, bin))) return `no ${bin} in ${PG_BIN_DIR} (set PG_BIN_DIR)`;
  }
  if (isRoot()) {
    if (spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root and there is no postgres OS user to run PostgreSQL as';
    if (spawnSync('runuser', ['--help']).status !== 0) return 'running as root without runuser to run PostgreSQL as the postgres user';
  }
  return undefined;
}

/** Runs a PostgreSQL binary (as the postgres user when root) without blocking the event loop. */
function run(bin: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', path.join(PG_BIN_DIR, bin), ...args]] : [path.join(PG_BIN_DIR, bin), args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function runOk(bin: string, args: string[]): Promise<void> {
  const { code, output } = await run(bin, args);
  if (code !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${code}: ${output}`);
}

export class DisposablePostgres {
  private readonly dir: string;
  private started = false;

  constructor(readonly port: number) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'atende-pg-'));
    if (isRoot()) {
      const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
      const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
      chownSync(this.dir, uid, gid);
    }
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  /** initdb (once) and start; resolves when the server accepts connections. */
  async start(): Promise<void> {
    if (!existsSync(this.data)) {
      await runOk('initdb', ['-D', this.data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    }
    // Durability does not matter here; speed on a loaded machine does.
    const options = [
      `-p ${this.port}`,
      `-c listen_addresses=127.0.0.1`,
      `-c unix_socket_directories=${this.dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=100',
    ].join(' ');
    await runOk('pg_ctl', ['-D', this.data, '-l', path.join(this.dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
    this.started = true;
  }

  /** `pg_ctl restart -m fast`: every connection is ended, the server comes back; answers how long it took. */
  async restart(): Promise<number> {
    const started = performance.now();
    await runOk('pg_ctl', ['-D', this.data, '-l', path.join(this.dir, 'log'), '-m', 'fast', '-w', '-t', '60', 'restart']);
    return performance.now() - started;
  }

  /** Stops the server and removes its folder. */
  async destroy(): Promise<void> {
    if (this.started) await run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    this.started = false;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
