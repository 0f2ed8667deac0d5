import type { EntityManager } from 'typeorm';
import { SOCKET_EVENTS } from '@shared/events';
import { CONTACT_COUNT_EXACT_MAX, CONTACT_COUNT_EXACT_MAX_UNSEARCHED } from '@shared/limits';
import type {
  ContactDto,
  ContactEventPayload,
  ContactListQuery,
  ContactListResponse,
  CreateContactInput,
  RemoveDuplicatesResponse,
  UpdateContactInput,
} from '@shared/schemas/contacts';
import { normalizeStoredContactNumber } from '@shared/validation/contact-number';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import type { Emit } from '../../realtime/domain-events';
import { CONTACT_COLUMNS, CONTACT_ORDER, CONTACT_SELECT, contactFilterConditions, contactFilterSql } from './contact-list.query';
import { authorizeContact, authorizeContactAction, type ContactAction } from './contacts.policy';
import { presentContact, type ContactRow } from './contacts.presenter';

type ContactsDeps = Pick<AppDeps, 'dataSource' | 'events'>;
type Queryable = Pick<EntityManager, 'query'>;

/** Columns a create or an update may write, in the order of CONTACT_WRITABLE. */
const CONTACT_WRITABLE = [
  'name',
  'number',
  'email',
  'cpfCnpj',
  'birthday',
  'firstName',
  'lastName',
  'businessName',
  'messengerId',
  'instagramId',
  'hubWhatsappId',
  'telegramId',
  'kanbanId',
  'extraInfo',
  'blockContact',
  'blockChatbot',
] as const satisfies readonly (keyof CreateContactInput)[];

/** Rows of the name index a broad filter's page may walk before it sorts the matches instead. */
const ORDERED_PROBE_ROWS = 20_000;

const UNIQUE_NUMBER_CONSTRAINT = 'contacts_tenant_number_uq';

/** A PostgreSQL error as TypeORM wraps it (QueryFailedError keeps the driver's fields). */
function pgError(err: unknown): { code?: string; constraint?: string } {
  const e = err as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  return { code: e.driverError?.code ?? e.code, constraint: e.driverError?.constraint ?? e.constraint };
}

/** The unique index is the guard against two contacts for one person (no check-then-insert race). */
function duplicateNumberError(err: unknown): unknown {
  const { code, constraint } = pgError(err);
  return code === '23505' && constraint === UNIQUE_NUMBER_CONSTRAINT ? new AppError('ERR_DUPLICATED_CONTACT') : err;
}

/** Contacts: CRUD, tags, wallets, block flags and the duplicate merge. */
export class ContactsService {
  constructor(private readonly deps: ContactsDeps) {}

  /**
   * A page in name order and the number of matches, without reading every match of a broad
   * filter (issue #11, section 6: a tenant may hold a million contacts):
   * 1. One statement takes up to CONTACT_COUNT_EXACT_MAX + 1 matches (the trigram indexes find
   *    them), counts them, and sorts them for the page. With fewer matches than that, which is
   *    what a search usually has, this is the whole answer, and the count is exact.
   * 2. Beyond, the count is the planner's estimate (`countEstimated`), and the page is read in
   *    name order from the name index, filtering row by row, which ends quickly when matches
   *    are this common; but matches may all sort late (a first name), so that read stops after
   *    ORDERED_PROBE_ROWS rows, and then the matches are all sorted after all.
   * `hasMore` is always exact: every page reads one row more than it shows.
   */
  async list(auth: AuthContext, query: ContactListQuery): Promise<ContactListResponse> {
    authorizeContactAction(auth, 'list');
    const db = this.deps.dataSource;
    const offset = (query.pageNumber - 1) * query.pageSize;
    const want = query.pageSize + 1;
    const respond = (rows: ContactRow[], count: number, countEstimated: boolean): ContactListResponse => ({
      contacts: rows.slice(0, query.pageSize).map(presentContact),
      // Never below what is known to exist (an estimate can be low).
      count: Math.max(count, offset + Math.min(rows.length, want)),
      countEstimated,
      hasMore: rows.length > query.pageSize,
    });

    const firstParams: unknown[] = [];
    const where = contactFilterSql(auth.tenantId, query, firstParams);
    firstParams.push(CONTACT_COUNT_EXACT_MAX + 1, want, offset);
    const n = firstParams.length;
    const rows: (ContactRow & { matchCount: number })[] = await db.query(
      `WITH m AS MATERIALIZED (SELECT c.id, lower(c.name) AS k FROM contacts c ${where} LIMIT $${n - 2}),
            p AS (SELECT id, k FROM m ORDER BY k, id LIMIT $${n - 1} OFFSET $${n})
       SELECT ${CONTACT_COLUMNS}, (SELECT count(*)::int FROM m) AS "matchCount"
         FROM contacts c JOIN p ON p.id = c.id
        ORDER BY p.k, p.id`,
      firstParams,
    );
    let matches = rows[0]?.matchCount;
    if (matches === undefined) {
      // An empty page (no match, or a page past the end): the count alone, bounded the same way.
      const countParams: unknown[] = [];
      const countWhere = contactFilterSql(auth.tenantId, query, countParams);
      countParams.push(CONTACT_COUNT_EXACT_MAX + 1);
      const [row]: { count: number }[] = await db.query(
        `SELECT count(*)::int AS count FROM (SELECT 1 FROM contacts c ${countWhere} LIMIT $${countParams.length}) m`,
        countParams,
      );
      matches = row?.count ?? 0;
    }
    if (matches <= CONTACT_COUNT_EXACT_MAX) return respond(rows, matches, false);

    const estimateParams: unknown[] = [];
    const estimateWhere = contactFilterSql(auth.tenantId, query, estimateParams);
    const searched = Boolean(query.searchParam?.trim());
    const exactParams = [...estimateParams, CONTACT_COUNT_EXACT_MAX_UNSEARCHED + 1];
    const [estimate, exact, ordered] = await Promise.all([
      estimateRows(db, `SELECT 1 FROM contacts c ${estimateWhere}`, estimateParams),
      searched
        ? Promise.resolve(undefined)
        : db
            .query(
              `SELECT count(*)::int AS count FROM (SELECT 1 FROM contacts c ${estimateWhere} LIMIT $${exactParams.length}) m`,
              exactParams,
            )
            .then((r: { count: number }[]) => r[0]?.count ?? 0),
      this.pageInNameOrder(auth.tenantId, query, want, offset, true),
    ]);
    const page = ordered.length === want ? ordered : await this.pageInNameOrder(auth.tenantId, query, want, offset, false);
    if (exact !== undefined && exact <= CONTACT_COUNT_EXACT_MAX_UNSEARCHED) return respond(page, exact, false);
    // The planner's guess can fall below what is already known: more than the exact limit, and
    // at least every row up to this page.
    return respond(page, Math.max(estimate, matches, offset + page.length), true);
  }

  /**
   * One page of a broad filter. `probe`: walk the name index, at most ORDERED_PROBE_ROWS rows
   * (may come back short although more matches exist); otherwise sort every match.
   */
  private async pageInNameOrder(
    tenantId: number,
    filters: ContactListQuery,
    want: number,
    offset: number,
    probe: boolean,
  ): Promise<ContactRow[]> {
    const params: unknown[] = [];
    const { tenant, rest } = contactFilterConditions(tenantId, filters, params);
    params.push(want, offset);
    const [limit, skip] = [`$${params.length - 1}`, `$${params.length}`];
    const filtered = rest.length ? `WHERE ${rest.join(' AND ')}` : '';
    // OFFSET 0 keeps the planner from walking the name index for the full sort: it must find
    // all the matches (the trigram indexes) and sort them.
    const source = probe
      ? `(SELECT c.id, c."kanbanId", c."searchText", c."searchDigits", lower(c.name) AS k
            FROM contacts c WHERE ${tenant} ${CONTACT_ORDER} LIMIT ${ORDERED_PROBE_ROWS}) c ${filtered}`
      : `(SELECT c.id, lower(c.name) AS k FROM contacts c WHERE ${[tenant, ...rest].join(' AND ')} OFFSET 0) c`;
    return this.deps.dataSource.query(
      `SELECT ${CONTACT_COLUMNS}
         FROM contacts c JOIN (SELECT c.id, c.k FROM ${source} ORDER BY c.k, c.id LIMIT ${limit} OFFSET ${skip}) p ON p.id = c.id
        ORDER BY p.k, p.id`,
      params,
    );
  }

  async get(auth: AuthContext, contactId: number): Promise<ContactDto> {
    return presentContact(authorizeContact(auth, 'read', await loadContact(this.deps.dataSource, contactId)));
  }

  async create(auth: AuthContext, input: CreateContactInput): Promise<ContactDto> {
    authorizeContactAction(auth, 'create');
    if (input.wallets?.length) authorizeContactAction(auth, 'changeWallets');
    return this.deps.events.transaction(async (tx, emit) => {
      if (input.kanbanId) await assertKanbanOfTenant(tx, auth.tenantId, input.kanbanId);
      const columns = CONTACT_WRITABLE.filter((k) => input[k] !== undefined);
      const values = columns.map((k) => (k === 'extraInfo' ? JSON.stringify(input[k]) : input[k]));
      const placeholders = columns.map((_, i) => `$${i + 2}`);
      let id: number;
      try {
        const rows: { id: number }[] = await tx.query(
          `INSERT INTO contacts ("tenantId", ${columns.map((c) => `"${c}"`).join(', ')})
           VALUES ($1, ${placeholders.join(', ')}) RETURNING id`,
          [auth.tenantId, ...values],
        );
        id = rows[0].id;
      } catch (err) {
        throw duplicateNumberError(err);
      }
      if (input.tags?.length) await replaceTags(tx, auth.tenantId, id, input.tags);
      if (input.wallets?.length) await replaceWallets(tx, auth.tenantId, id, input.wallets);
      return this.publish(tx, emit, id, 'create');
    });
  }

  /**
   * Writes the fields present in the body. Wallets sent unchanged (a form posting the whole
   * contact back) need no extra right; a different set needs the wallet permission.
   */
  async update(auth: AuthContext, contactId: number, input: UpdateContactInput): Promise<ContactDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      const contact = authorizeContact(auth, 'update', await loadContact(tx, contactId, true));
      if (input.wallets !== undefined && !sameIds(input.wallets, contact.wallets?.map((w) => w.id) ?? [])) {
        authorizeContactAction(auth, 'changeWallets');
      }
      if (input.kanbanId) await assertKanbanOfTenant(tx, auth.tenantId, input.kanbanId);
      const columns = CONTACT_WRITABLE.filter((k) => input[k] !== undefined);
      if (columns.length > 0) {
        const values = columns.map((k) => (k === 'extraInfo' ? JSON.stringify(input[k]) : input[k]));
        const sets = columns.map((c, i) => `"${c}" = $${i + 3}`);
        try {
          await tx.query(`UPDATE contacts SET ${sets.join(', ')}, "updatedAt" = now() WHERE id = $1 AND "tenantId" = $2`, [
            contact.id,
            auth.tenantId,
            ...values,
          ]);
        } catch (err) {
          throw duplicateNumberError(err);
        }
        // As on create: the contact must stay reachable (a number or an id on another channel).
        const [reach]: { reachable: boolean }[] = await tx.query(
          `SELECT (number IS NOT NULL OR "messengerId" IS NOT NULL OR "instagramId" IS NOT NULL
                   OR "hubWhatsappId" IS NOT NULL OR "telegramId" IS NOT NULL) AS reachable
             FROM contacts WHERE id = $1`,
          [contact.id],
        );
        if (!reach?.reachable) {
          throw new AppError('ERR_VALIDATION', { fields: [{ path: 'number', message: 'Número é obrigatório' }] });
        }
      }
      if (input.tags !== undefined) await replaceTags(tx, auth.tenantId, contact.id, input.tags);
      if (input.wallets !== undefined) await replaceWallets(tx, auth.tenantId, contact.id, input.wallets);
      return this.publish(tx, emit, contact.id, 'update');
    });
  }

  /** A contact with tickets keeps its history: it cannot be deleted (spec section 8). */
  async remove(auth: AuthContext, contactId: number): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      const contact = authorizeContact(auth, 'delete', await loadContact(tx, contactId, true));
      const tickets: unknown[] = await tx.query(`SELECT 1 FROM tickets WHERE "contactId" = $1 AND "tenantId" = $2 LIMIT 1`, [
        contact.id,
        auth.tenantId,
      ]);
      if (tickets.length > 0) throw new AppError('ERR_CONTACT_TICKETS_REGISTERED');
      try {
        await tx.query(`DELETE FROM contacts WHERE id = $1 AND "tenantId" = $2`, [contact.id, auth.tenantId]);
      } catch (err) {
        // A ticket created between the check and the delete: the foreign key refuses it.
        if (pgError(err).code === '23503') throw new AppError('ERR_CONTACT_TICKETS_REGISTERED');
        throw err;
      }
      const payload: ContactEventPayload = { action: 'delete', contactId: contact.id };
      await emit(auth.tenantId, SOCKET_EVENTS.contactUpdate, payload);
    });
  }

  async setTags(auth: AuthContext, contactId: number, tags: number[]): Promise<ContactDto> {
    return this.changeOne(auth, contactId, 'tag', (tx, id) => replaceTags(tx, auth.tenantId, id, tags));
  }

  async setWallets(auth: AuthContext, contactId: number, wallets: number[]): Promise<ContactDto> {
    return this.changeOne(auth, contactId, 'changeWallets', (tx, id) => replaceWallets(tx, auth.tenantId, id, wallets));
  }

  async setBlock(
    auth: AuthContext,
    contactId: number,
    flag: 'blockContact' | 'blockChatbot',
    value: boolean,
  ): Promise<ContactDto> {
    return this.changeOne(auth, contactId, 'block', async (tx, id) => {
      await tx.query(`UPDATE contacts SET "${flag}" = $3, "updatedAt" = now() WHERE id = $1 AND "tenantId" = $2`, [
        id,
        auth.tenantId,
        value,
      ]);
    });
  }

  /**
   * Merges contacts that are one person: their stored numbers have the same normalised form
   * (normalizeStoredContactNumber: formatting, missing country code, missing Brazilian 9th
   * digit; a stored number that is already valid with its country code is kept as it is), or,
   * for numbers that cannot be normalised, the same digits. In each group the oldest contact
   * stays; tickets, messages, tags and wallets move to it; its empty fields are filled from the
   * others (oldest first); a block flag set on any of them stays set; their channel identities
   * (contact_identities) follow. Every stored number is then rewritten in its normalised form,
   * so the unique index catches the next duplicate. A group where two contacts each have an
   * open or pending ticket on the same channel is left alone and counted as skipped: merging
   * would make two active tickets for one (contact, channel), which the tickets index forbids
   * and only a person can resolve. One transaction, serialised per tenant by an advisory lock.
   */
  async removeDuplicates(auth: AuthContext): Promise<RemoveDuplicatesResponse> {
    authorizeContactAction(auth, 'removeDuplicates');
    return this.deps.events.transaction(async (tx, emit) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('contacts.removeDuplicates'), $1)`, [auth.tenantId]);
      const rows: { id: number; number: string }[] = await tx.query(
        `SELECT id, number FROM contacts WHERE "tenantId" = $1 AND number IS NOT NULL ORDER BY "createdAt", id`,
        [auth.tenantId],
      );
      const groups = new Map<string, { ids: number[]; canonical: string | null; numbers: string[] }>();
      for (const row of rows) {
        const canonical = normalizeStoredContactNumber(row.number);
        const key = canonical ?? `raw:${row.number.replace(/\D/g, '') || row.number}`;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { ids: [], canonical, numbers: [] }));
        group.ids.push(row.id);
        group.numbers.push(row.number);
      }
      const candidates = [...groups.values()].filter((g) => g.ids.length > 1);
      const blocked = await groupsWithCompetingActiveTickets(
        tx,
        auth.tenantId,
        candidates.map((g) => g.ids),
      );
      const dupIds: number[] = [];
      const keepIds: number[] = [];
      const renameIds: number[] = [];
      const renameNumbers: string[] = [];
      let merged = 0;
      let skipped = 0;
      for (const group of groups.values()) {
        const [keep, ...dups] = group.ids;
        if (blocked.has(keep)) {
          skipped++;
          continue;
        }
        if (dups.length > 0) merged++;
        for (const dup of dups) {
          dupIds.push(dup);
          keepIds.push(keep);
        }
        if (group.canonical && group.numbers[0] !== group.canonical) {
          renameIds.push(keep);
          renameNumbers.push(group.canonical);
        }
      }
      if (dupIds.length > 0) await mergeInto(tx, auth.tenantId, dupIds, keepIds);
      if (renameIds.length > 0) {
        await tx.query(
          `UPDATE contacts c SET number = r.number, "updatedAt" = now()
             FROM unnest($2::int[], $3::varchar[]) AS r(id, number)
            WHERE c.id = r.id AND c."tenantId" = $1`,
          [auth.tenantId, renameIds, renameNumbers],
        );
      }
      if (dupIds.length > 0 || renameIds.length > 0) {
        const payload: ContactEventPayload = { action: 'bulk', source: 'removeDuplicates' };
        await emit(auth.tenantId, SOCKET_EVENTS.contactUpdate, payload);
      }
      return { merged, removed: dupIds.length, normalized: renameIds.length, skipped };
    });
  }

  /** Load, authorize, change, answer the fresh contact and tell the tenant. */
  private async changeOne(
    auth: AuthContext,
    contactId: number,
    action: ContactAction,
    change: (tx: EntityManager, id: number) => Promise<void>,
  ): Promise<ContactDto> {
    return this.deps.events.transaction(async (tx, emit) => {
      const contact = authorizeContact(auth, action, await loadContact(tx, contactId, true));
      await change(tx, contact.id);
      return this.publish(tx, emit, contact.id, 'update');
    });
  }

  private async publish(tx: EntityManager, emit: Emit, contactId: number, action: 'create' | 'update'): Promise<ContactDto> {
    const row = await loadContact(tx, contactId);
    if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
    const contact = presentContact(row);
    const payload: ContactEventPayload = { action, contact };
    await emit(row.tenantId, SOCKET_EVENTS.contactUpdate, payload);
    return contact;
  }
}

/** The planner's row estimate for a statement (planning only: nothing is read). */
async function estimateRows(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const rows: { 'QUERY PLAN': unknown }[] = await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[];
  return Math.round(plan[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** One contact by id, any tenant: the caller's policy checks the tenant right after. */
export async function loadContact(db: Queryable, contactId: number, forUpdate = false): Promise<ContactRow | null> {
  const rows: ContactRow[] = await db.query(`${CONTACT_SELECT} WHERE c.id = $1${forUpdate ? ' FOR UPDATE OF c' : ''}`, [
    contactId,
  ]);
  return rows[0] ?? null;
}

const sameIds = (a: number[], b: number[]): boolean => {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((id) => sa.has(id));
};

async function assertKanbanOfTenant(db: Queryable, tenantId: number, kanbanId: number): Promise<void> {
  const rows: unknown[] = await db.query(`SELECT 1 FROM kanbans WHERE id = $1 AND "tenantId" = $2`, [kanbanId, tenantId]);
  if (rows.length === 0) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'kanbanId', message: 'coluna do kanban não encontrada' }] });
  }
}

/** Replaces the contact's tags with `tagIds`; every tag must be of the same tenant. */
async function replaceTags(db: Queryable, tenantId: number, contactId: number, tagIds: number[]): Promise<void> {
  const ids = [...new Set(tagIds)];
  const found: { id: number }[] = ids.length
    ? await db.query(`SELECT id FROM tags WHERE "tenantId" = $1 AND id = ANY($2::int[])`, [tenantId, ids])
    : [];
  if (found.length !== ids.length) throw new AppError('ERR_NO_TAG_FOUND');
  await db.query(`DELETE FROM contact_tags WHERE "contactId" = $1 AND NOT ("tagId" = ANY($2::int[]))`, [contactId, ids]);
  if (ids.length) {
    await db.query(
      `INSERT INTO contact_tags ("contactId", "tagId", "tenantId") SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING`,
      [contactId, ids, tenantId],
    );
  }
}

/** Replaces the contact's responsible users; every user must belong to the same tenant. */
async function replaceWallets(db: Queryable, tenantId: number, contactId: number, userIds: number[]): Promise<void> {
  const ids = [...new Set(userIds)];
  const found: { id: number }[] = ids.length
    ? await db.query(
        `SELECT u.id FROM users u
          WHERE u.id = ANY($2::int[])
            AND (u."tenantId" = $1 OR EXISTS (SELECT 1 FROM user_tenants ut WHERE ut."userId" = u.id AND ut."tenantId" = $1))`,
        [tenantId, ids],
      )
    : [];
  if (found.length !== ids.length) throw new AppError('ERR_NO_USER_FOUND');
  await db.query(`DELETE FROM contact_wallets WHERE "contactId" = $1 AND NOT ("userId" = ANY($2::int[]))`, [contactId, ids]);
  if (ids.length) {
    await db.query(
      `INSERT INTO contact_wallets ("contactId", "userId", "tenantId") SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING`,
      [contactId, ids, tenantId],
    );
  }
}

/** The first contact (the one kept) of each group in which two members have an active ticket on one channel. */
async function groupsWithCompetingActiveTickets(db: Queryable, tenantId: number, groups: number[][]): Promise<Set<number>> {
  if (groups.length === 0) return new Set();
  const members = groups.flat();
  const keeps = groups.flatMap((ids) => ids.map(() => ids[0]));
  const rows: { keep: number }[] = await db.query(
    `SELECT m.keep
       FROM tickets t JOIN unnest($2::int[], $3::int[]) AS m(member, keep) ON t."contactId" = m.member
      WHERE t."tenantId" = $1 AND t.status IN ('open', 'pending')
      GROUP BY m.keep, COALESCE(t."whatsappId", 0)
     HAVING count(DISTINCT t."contactId") > 1`,
    [tenantId, members, keeps],
  );
  return new Set(rows.map((r) => r.keep));
}

/** Fields a kept contact takes from its duplicates when it has none (oldest duplicate first). */
const FILLABLE = [
  'email',
  'cpfCnpj',
  'birthday',
  'firstName',
  'lastName',
  'businessName',
  'messengerId',
  'instagramId',
  'hubWhatsappId',
  'telegramId',
  'profilePicUrl',
  'kanbanId',
] as const;

/** Moves everything of each `dupIds[i]` to `keepIds[i]`, then deletes the duplicates. */
async function mergeInto(db: Queryable, tenantId: number, dupIds: number[], keepIds: number[]): Promise<void> {
  const pairs = `unnest($2::int[], $3::int[]) AS m(dup, keep)`;
  const params = [tenantId, dupIds, keepIds];
  await db.query(
    `UPDATE tickets t SET "contactId" = m.keep, "updatedAt" = now() FROM ${pairs} WHERE t."contactId" = m.dup AND t."tenantId" = $1`,
    params,
  );
  await db.query(
    `UPDATE messages x SET "contactId" = m.keep FROM ${pairs} WHERE x."contactId" = m.dup AND x."tenantId" = $1`,
    params,
  );
  // Every id the person has on a channel stays theirs (LESSONS 8); the cascade would drop it.
  await db.query(
    `UPDATE contact_identities ci SET "contactId" = m.keep FROM ${pairs} WHERE ci."contactId" = m.dup AND ci."tenantId" = $1`,
    params,
  );
  await db.query(
    `INSERT INTO contact_tags ("contactId", "tagId", "tenantId")
     SELECT m.keep, ct."tagId", $1 FROM contact_tags ct JOIN ${pairs} ON ct."contactId" = m.dup
     ON CONFLICT DO NOTHING`,
    params,
  );
  await db.query(
    `INSERT INTO contact_wallets ("contactId", "userId", "tenantId")
     SELECT m.keep, cw."userId", $1 FROM contact_wallets cw JOIN ${pairs} ON cw."contactId" = m.dup
     ON CONFLICT DO NOTHING`,
    params,
  );
  const firstOf = (col: string) =>
    `(array_agg(d."${col}" ORDER BY d."createdAt", d.id) FILTER (WHERE d."${col}" IS NOT NULL${col === 'kanbanId' || col === 'birthday' ? '' : ` AND d."${col}" <> ''`}))[1] AS "${col}"`;
  await db.query(
    `UPDATE contacts k SET
       ${FILLABLE.map((col) => `"${col}" = COALESCE(${col === 'kanbanId' || col === 'birthday' ? `k."${col}"` : `NULLIF(k."${col}", '')`}, f."${col}")`).join(',\n       ')},
       "extraInfo" = CASE WHEN jsonb_array_length(k."extraInfo") = 0 THEN COALESCE(f."extraInfo", k."extraInfo") ELSE k."extraInfo" END,
       "blockContact" = k."blockContact" OR f."blockContact",
       "blockChatbot" = k."blockChatbot" OR f."blockChatbot",
       "updatedAt" = now()
     FROM (SELECT m.keep,
                  ${FILLABLE.map(firstOf).join(',\n                  ')},
                  (array_agg(d."extraInfo" ORDER BY d."createdAt", d.id) FILTER (WHERE jsonb_array_length(d."extraInfo") > 0))[1] AS "extraInfo",
                  bool_or(d."blockContact") AS "blockContact",
                  bool_or(d."blockChatbot") AS "blockChatbot"
             FROM ${pairs} JOIN contacts d ON d.id = m.dup
            GROUP BY m.keep) f
    WHERE k.id = f.keep AND k."tenantId" = $1`,
    params,
  );
  await db.query(`DELETE FROM contacts WHERE "tenantId" = $1 AND id = ANY($2::int[])`, [tenantId, dupIds]);
}
