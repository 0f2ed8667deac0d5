import { z } from 'zod';

/**
 * The web app's Content-Security-Policy forbids eval (script-src 'self'). Zod compiles object
 * parsers with `new Function` when it can, and finds out by trying `Function('')` once: blocked
 * and caught, but the browser still raises a CSP violation and sends a report. Jitless mode
 * skips both the probe and the compiled parsers.
 */
z.config({ jitless: true });
