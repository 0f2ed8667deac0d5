import { statfs } from 'node:fs/promises';
import os from 'node:os';
import type { TerminalAuditRow, TerminalCommand, TerminalResultView } from '@shared/schemas/platform-ops';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { InternalDataService } from './internal-data.service';

/** Audit rows shown on the terminal screen. */
export const TERMINAL_AUDIT_LISTED = 100;
const REDIS_PING_TIMEOUT_MS = 2_000;

type Outcome = TerminalAuditRow['outcome'];

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const gb = (bytes: number) => `${(bytes / (1024 * MB)).toFixed(2)} GB`;

function duration(seconds: number): string {
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${d > 0 ? `${d}d ` : ''}${h}h ${m}m ${s % 60}s`;
}

/**
 * The diagnostic terminal (/terminal): a fixed list of commands, each a Node function that reads
 * the state of this backend. No shell, no child process, no argument from the caller: the only
 * input is the command's name, checked against TERMINAL_COMMANDS. Every use is audited.
 */
export class TerminalService {
  private readonly commands: Record<TerminalCommand, () => Promise<string>>;

  constructor(private readonly deps: AppDeps) {
    this.commands = {
      uptime: async () =>
        [
          `Backend: ${duration(process.uptime())}`,
          `Sistema: ${duration(os.uptime())}`,
          `Carga média (1, 5, 15 min): ${os
            .loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
        ].join('\n'),
      disk: async () => {
        const fs = await statfs(this.deps.config.dataDir);
        const total = fs.blocks * fs.bsize;
        const free = fs.bavail * fs.bsize;
        const used = total - free;
        return [
          `Pasta de dados: ${this.deps.config.dataDir}`,
          `Total: ${gb(total)}`,
          `Usado: ${gb(used)} (${total > 0 ? ((used / total) * 100).toFixed(1) : '0'}%)`,
          `Livre: ${gb(free)}`,
        ].join('\n');
      },
      memory: async () => {
        const m = process.memoryUsage();
        return [
          `Backend: RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)} de ${mb(m.heapTotal)}, externa ${mb(m.external)}`,
          `Sistema: ${gb(os.totalmem() - os.freemem())} usados de ${gb(os.totalmem())} (livre ${gb(os.freemem())})`,
        ].join('\n');
      },
      'db-status': async () => {
        const started = Date.now();
        const [row] = await this.deps.dataSource.query(
          `SELECT current_setting('server_version') AS version, pg_database_size(current_database()) AS size`,
        );
        const latency = Date.now() - started;
        const pending = await this.deps.dataSource.showMigrations();
        return [
          `Banco: ${this.deps.config.databaseUrl ? 'PostgreSQL' : 'PGlite (embutido)'} ${row.version}`,
          `Resposta: ${latency} ms`,
          `Tamanho: ${mb(Number(row.size))}`,
          `Migrações pendentes: ${pending ? 'sim' : 'não'}`,
        ].join('\n');
      },
      'redis-ping': async () => {
        const redis = this.deps.redis;
        if (!redis) return 'Redis desativado (REDIS_URL não definido): filas e limites rodam neste processo.';
        const started = Date.now();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`Redis não respondeu em ${REDIS_PING_TIMEOUT_MS} ms`)),
            REDIS_PING_TIMEOUT_MS,
          );
        });
        try {
          const answer = await Promise.race([redis.ping(), timeout]);
          return `${answer} (${Date.now() - started} ms)`;
        } finally {
          clearTimeout(timer);
        }
      },
      queues: async () => {
        const { jobs } = this.deps;
        const lines = [`Driver: ${jobs.driver === 'bull' ? 'Bull (Redis)' : 'em processo'}`];
        for (const name of jobs.names()) {
          const c = await jobs.counts(name);
          lines.push(
            `${name}: aguardando ${c.waiting}, ativas ${c.active}, atrasadas ${c.delayed}, falhas ${c.failed}, concluídas ${c.completed}`,
          );
        }
        return lines.join('\n');
      },
      version: async () => {
        const data = await new InternalDataService(this.deps).read();
        const [last] = await this.deps.dataSource.query(`SELECT name FROM migrations ORDER BY timestamp DESC LIMIT 1`);
        return [
          `${data.app.name} ${data.app.version}`,
          `Node.js ${data.runtime.node} (${data.runtime.platform}/${data.runtime.arch})`,
          `Banco: ${data.database.kind} ${data.database.version}`,
          `Última migração: ${last?.name ?? '-'}`,
        ].join('\n');
      },
    };
  }

  async run(auth: AuthContext, command: TerminalCommand): Promise<TerminalResultView> {
    let outcome: 'ok' | 'error' = 'ok';
    let output: string;
    try {
      output = await this.commands[command]();
    } catch (err) {
      outcome = 'error';
      output = `Erro: ${err instanceof Error ? err.message : String(err)}`;
      this.deps.logger.warn({ err, command }, 'terminal command failed');
    }
    await this.audit(auth, command, outcome);
    return { command, outcome, output, at: new Date().toISOString() };
  }

  /** A refused call is audited too, with what it asked for (trimmed), so probing shows up. */
  async auditRefused(auth: AuthContext, requested: unknown): Promise<void> {
    const command = typeof requested === 'string' && requested.trim() ? requested.trim().slice(0, 64) : '(nenhum)';
    await this.audit(auth, command, 'refused');
  }

  async auditTrail(): Promise<TerminalAuditRow[]> {
    const rows = await this.deps.dataSource.query(
      `SELECT id, "userName", "tenantId", command, outcome, "createdAt" FROM terminal_audit ORDER BY "createdAt" DESC, id DESC LIMIT $1`,
      [TERMINAL_AUDIT_LISTED],
    );
    return rows.map((r: any) => ({
      id: r.id,
      userName: r.userName,
      tenantId: r.tenantId,
      command: r.command,
      outcome: r.outcome,
      createdAt: new Date(r.createdAt).toISOString(),
    }));
  }

  private async audit(auth: AuthContext, command: string, outcome: Outcome): Promise<void> {
    await this.deps.dataSource.query(
      `INSERT INTO terminal_audit ("tenantId", "userId", "userName", command, outcome)
       VALUES ($1, $2, COALESCE((SELECT name FROM users WHERE id = $2), '') || ' <' || $3::text || '>', $4, $5)`,
      [auth.tenantId, auth.userId, auth.email, command, outcome],
    );
  }
}
