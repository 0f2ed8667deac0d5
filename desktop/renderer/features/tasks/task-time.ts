/** The datetime-local text of an instant, in the browser's zone (what the input shows). */
export function toDateTimeLocal(iso: string): string {
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A datetime-local text (the browser's zone) as ISO 8601; any other accepted text goes as typed. */
export function fromDateTimeLocal(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return value;
  return new Date(value).toISOString();
}

export interface TaskOwnerOption {
  id: number;
  name: string;
}
