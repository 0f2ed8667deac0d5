import { describe, expect, it } from 'vitest';
import { blobOrErrorBody, fileNameFromContentDisposition } from './file-download';

describe('fileNameFromContentDisposition', () => {
  it('reads the quoted and the bare file name', () => {
    expect(fileNameFromContentDisposition('attachment; filename="contatos-2025-11-21.csv"')).toBe('contatos-2025-11-21.csv');
    expect(fileNameFromContentDisposition('attachment; filename=contatos.xlsx')).toBe('contatos.xlsx');
  });

  it('prefers the UTF-8 name (accents) and strips folders', () => {
    expect(
      fileNameFromContentDisposition(`attachment; filename="modelo-importacao.csv"; filename*=UTF-8''importa%C3%A7%C3%A3o.csv`),
    ).toBe('importação.csv');
    expect(fileNameFromContentDisposition('attachment; filename="../../etc/passwd"')).toBe('.._.._etc_passwd');
  });

  it('answers null without a name', () => {
    expect(fileNameFromContentDisposition(null)).toBeNull();
    expect(fileNameFromContentDisposition('attachment')).toBeNull();
    expect(fileNameFromContentDisposition('attachment; filename=""')).toBeNull();
  });
});

describe('blobOrErrorBody', () => {
  it('keeps a file as a Blob and reads an error answer as JSON', async () => {
    const file = await blobOrErrorBody(new Response('a;b\r\n', { status: 200 }));
    expect(file).toBeInstanceOf(Blob);
    const error = await blobOrErrorBody(new Response('{"error":"ERR_NO_PERMISSION"}', { status: 403 }));
    expect(error).toEqual({ error: 'ERR_NO_PERMISSION' });
  });
});
