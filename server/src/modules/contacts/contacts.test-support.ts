import type { ContactImportDto } from '@shared/schemas/contacts';
import type { TestServer } from '../../../../tests/helpers/test-server';

/** Helpers shared by the contacts test files (not loaded by the server). */

export async function createContact(server: TestServer, token: string, body: Record<string, unknown>) {
  const res = await server.request('POST', '/contacts', { token, body });
  if (res.status !== 201) throw new Error(`create contact failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; number: string | null; name: string };
}

/** A ticket row written directly: the tickets module owns the real creation. */
export async function insertTicket(server: TestServer, tenantId: number, contactId: number, status = 'open'): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO tickets ("tenantId", "contactId", status) VALUES ($1, $2, $3) RETURNING id`,
    [tenantId, contactId, status],
  );
  return row.id;
}

export async function insertTag(server: TestServer, tenantId: number, name: string, color = '#FF0000'): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO tags ("tenantId", name, color) VALUES ($1, $2, $3) RETURNING id`,
    [tenantId, name, color],
  );
  return row.id;
}

export async function insertKanban(server: TestServer, tenantId: number, name: string): Promise<number> {
  const [row] = await server.deps.dataSource.query(`INSERT INTO kanbans ("tenantId", name) VALUES ($1, $2) RETURNING id`, [
    tenantId,
    name,
  ]);
  return row.id;
}

/** POST /contacts/upload as multipart, the way a browser sends it. */
export async function uploadFile(
  server: TestServer,
  token: string | undefined,
  file: { name: string; content: string | Uint8Array },
  fields: Record<string, string> = {},
  fieldName = 'file',
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(fieldName, new Blob([file.content as BlobPart]), file.name);
  const res = await fetch(`${server.url}/contacts/upload`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function waitForImport(
  server: TestServer,
  token: string,
  importId: string,
  timeoutMs = 20_000,
): Promise<ContactImportDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.request<ContactImportDto>('GET', `/contacts/upload/${importId}`, { token });
    if (res.status !== 200) throw new Error(`import status failed: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.status === 'done' || res.body.status === 'failed') return res.body;
    if (Date.now() > deadline) throw new Error(`import ${importId} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Downloads a file answer as bytes with its headers. */
export async function download(server: TestServer, method: string, url: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
