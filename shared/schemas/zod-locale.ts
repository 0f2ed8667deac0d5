import { z } from 'zod';

/**
 * Zod's own messages (where a schema gives none) in Brazilian Portuguese, like every message we
 * write; a missing field reads 'é obrigatório' as in our schemas. Imported once by the server's
 * validation and by the React app; calling it again changes nothing.
 */
export function usePortugueseValidationMessages(): void {
  const { localeError } = z.locales.ptBR();
  z.config({
    localeError,
    customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'é obrigatório' : undefined),
  });
}

usePortugueseValidationMessages();
