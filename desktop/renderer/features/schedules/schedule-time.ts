import { TZDate } from '@date-fns/tz';
import { QUICK_SCHEDULE_SHORTCUTS } from '@shared/limits';

/**
 * Dates of the /agendamentos dialog, read and written in the tenant's time zone (the setting
 * `timeZone`, default America/Sao_Paulo) whatever the browser's own zone: the form holds a wall
 * time `yyyy-MM-ddTHH:mm` (what `<input type="datetime-local">` writes, and what the server reads
 * in the same zone), and the request carries the exact instant.
 */
export type ScheduleShortcut = (typeof QUICK_SCHEDULE_SHORTCUTS)[number];
export const SCHEDULE_SHORTCUTS = QUICK_SCHEDULE_SHORTCUTS;
/** Hour a "tomorrow" or "next week" schedule starts at (the business morning). */
export const SHORTCUT_HOUR = 9;

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** The wall time (yyyy-MM-ddTHH:mm) of an instant in `zone`. */
export function wallTimeOf(instant: Date, zone: string): string {
  const d = new TZDate(instant.getTime(), zone);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a wall time names in `zone`; null when malformed or the day does not exist (31/02). */
export function instantOf(wallTime: string, zone: string): Date | null {
  const m = WALL_TIME.exec(wallTime.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  if (hour > 23 || minute > 59) return null;
  const d = new TZDate(year, month - 1, day, hour, minute, 0, 0, zone);
  if (d.getFullYear() !== year || d.getMonth() !== month - 1 || d.getDate() !== day) return null;
  return new Date(d.getTime());
}

/**
 * The wall time a shortcut of spec section 9 fills in: in 30 minutes (the next whole minute);
 * tomorrow and next week (7 days on) at 09:00 in the tenant's zone. `custom` keeps what was typed.
 */
export function shortcutWallTime(shortcut: ScheduleShortcut, now: Date, zone: string): string | null {
  if (shortcut === 'custom') return null;
  if (shortcut === 'in30Minutes') {
    const at = Math.ceil((now.getTime() + 30 * 60_000) / 60_000) * 60_000;
    return wallTimeOf(new Date(at), zone);
  }
  const today = new TZDate(now.getTime(), zone);
  const day = new TZDate(today.getFullYear(), today.getMonth(), today.getDate() + (shortcut === 'tomorrow' ? 1 : 7), SHORTCUT_HOUR, 0, 0, 0, zone);
  return wallTimeOf(new Date(day.getTime()), zone);
}

/** Why a typed wall time cannot be scheduled: null when it is a moment ahead of `now`. */
export function wallTimeProblem(wallTime: string, now: Date, zone: string): 'required' | 'invalid' | 'past' | null {
  if (!wallTime.trim()) return 'required';
  const instant = instantOf(wallTime, zone);
  if (!instant) return 'invalid';
  return instant.getTime() <= now.getTime() ? 'past' : null;
}
