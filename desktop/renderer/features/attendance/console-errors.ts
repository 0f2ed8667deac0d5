/**
 * Reading the server's refusals where the console shows them in place (dialogs) rather than in
 * the generic toast. Pure.
 */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const bodyOf = (failure: unknown): Record<string, unknown> | null => {
  if (!isRecord(failure)) return null;
  return isRecord(failure.data) ? failure.data : null;
};

/** The ongoing ticket of a 409 ERR_OTHER_OPEN_TICKET answer `{error, message, ticketId, userId}`. */
export function otherOpenTicketOf(failure: unknown): { ticketId: number; userId: number | null } | null {
  const body = bodyOf(failure);
  if (!body || body.error !== 'ERR_OTHER_OPEN_TICKET' || typeof body.ticketId !== 'number') return null;
  return { ticketId: body.ticketId, userId: typeof body.userId === 'number' ? body.userId : null };
}

/**
 * The server's own Portuguese sentence when it is more specific than the code's catalogue text
 * (403 'Só um administrador pode atribuir este atendimento.'); null otherwise.
 */
export function serverMessageOf(failure: unknown): string | null {
  const body = bodyOf(failure);
  const message = body && typeof body.message === 'string' ? body.message.trim() : '';
  return message && body?.error === 'ERR_NO_PERMISSION' ? message : null;
}
