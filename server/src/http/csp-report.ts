import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { CSP_REPORT_PATH } from './security-headers';

/** A report is a few hundred bytes; anything much larger is not one. */
const MAX_REPORT_BYTES = 16 * 1024;
/** Reports logged per client IP and minute; a page in a violation loop must not flood the log. */
const MAX_REPORTS_PER_MINUTE = 30;

/**
 * POST /csp-report: Content-Security-Policy violation reports (`report-uri`), unauthenticated
 * as browsers send them. Mounted before the body parser so its own small size limit applies.
 * Logged as warnings with the fields that say what was blocked where; answered 204.
 */
export function cspReportRoute(deps: Pick<AppDeps, 'logger' | 'rateLimiter'>): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== CSP_REPORT_PATH) return next();
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      return;
    }
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > MAX_REPORT_BYTES) {
      ctx.status = 413;
      return;
    }
    const { count } = await deps.rateLimiter.hit(`csp-report:${ctx.ip}`, 60_000);
    if (count > MAX_REPORTS_PER_MINUTE) {
      ctx.status = 429;
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_REPORT_BYTES) {
        ctx.status = 413;
        return;
      }
      chunks.push(chunk);
    }
    let report: unknown;
    try {
      report = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      ctx.status = 400;
      return;
    }
    // report-uri sends { "csp-report": {...} }; the Reporting API sends [{ type, body }].
    const body = (Array.isArray(report) ? report[0]?.body : (report as Record<string, unknown>)?.['csp-report']) ?? report;
    const r = (body ?? {}) as Record<string, unknown>;
    deps.logger.warn(
      {
        cspReport: {
          documentUri: r['document-uri'] ?? r.documentURL,
          violatedDirective: r['violated-directive'] ?? r['effective-directive'] ?? r.effectiveDirective,
          blockedUri: r['blocked-uri'] ?? r.blockedURL,
          sourceFile: r['source-file'] ?? r.sourceFile,
          lineNumber: r['line-number'] ?? r.lineNumber,
        },
        ip: ctx.ip,
      },
      'content security policy violation',
    );
    ctx.status = 204;
  };
}
