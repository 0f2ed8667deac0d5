import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * A redis-server of a test's own (fault suites, the fault benchmark), so killing it leaves the
 * rest of the suite's Redis untouched. No persistence: a restart comes back empty, as after a
 * failover or a flush.
 */
export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

export class DisposableRedis {
  private proc?: ChildProcess;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) return;
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (spawnSync('redis-cli', ['-p', String(this.port), 'ping']).stdout?.toString().trim() !== 'PONG') {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGKILL: the data is gone with the process. */
  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  }
}
