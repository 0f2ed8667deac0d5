/** dd/MM/yyyy HH:mm in pt-BR (spec section 5), the locale's own order elsewhere. */
export function formatNotificationDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language || 'pt-BR', { dateStyle: 'short', timeStyle: 'short' }).format(date);
}
