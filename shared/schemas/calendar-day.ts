/**
 * Calendar days typed as dd/MM/yyyy (spec section 5) or yyyy-MM-dd, without zod: the web app's
 * start-up script (desktop/renderer/boot.ts) reads them before zod has loaded.
 */

const DAY_BR = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const DAY_ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** yyyy-MM-dd for a valid calendar day typed as dd/MM/yyyy or yyyy-MM-dd, else null. */
export function parseCalendarDay(text: string): string | null {
  const value = text.trim();
  let y: number, m: number, d: number;
  const br = DAY_BR.exec(value);
  const iso = DAY_ISO.exec(value);
  if (br) [d, m, y] = [Number(br[1]), Number(br[2]), Number(br[3])];
  else if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else return null;
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return null;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > last) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
