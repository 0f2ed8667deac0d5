import { SOCKET_EVENTS } from '@shared/events';
import type { ContactEventPayload } from '@shared/schemas/contacts';
import type { ContactSyncAnswer, ContactSyncChannelResult, ContactSyncInput } from '@shared/schemas/groups';
import { normalizeContactNumber } from '@shared/validation/contact-number';
import type { ChannelRecord, PhoneContact } from '../../channels/channel-adapter';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { toChannelRecord, type ChannelRow } from '../../channels/channel-row';
import { authorizeContactAction } from './contacts.policy';
import { adapterOrNone } from '../messaging/channel-registry';

const NO_PHONE_CONTACTS = (channel: Pick<ChannelRecord, 'name' | 'type'>) =>
  `A conexão "${channel.name}" (tipo ${channel.type}) não dá acesso aos contatos do celular: apenas conexões por QR code (Baileys) sincronizam contatos.`;

/**
 * POST /contacts/sync: imports the phone's contacts of the tenant's QR channels (or of the one
 * named by `whatsappId`). What a channel offers is its adapter's `phoneContacts()`: for Baileys,
 * the address book entries and names WhatsApp synced to the linked device since it paired
 * (Baileys 7 has no contact store and no "list contacts" call; see baileys-adapter.ts
 * storeContacts), so a phone paired a moment ago may not have sent them all yet.
 *
 * Per contact with a phone number (LID-only entries have none and are skipped):
 * - no contact of the tenant has that number: created with the phone's saved name (else the
 *   name the person set on WhatsApp, else the number) and its WhatsApp identity on the channel;
 * - one has it and its name is only the number or the WhatsApp name, while the phone has
 *   another saved name: renamed to the saved name (updated);
 * - otherwise (the agents' own name for the person is kept): skipped.
 * Channels whose type has no phone contacts are listed with ERR_CHANNEL_OPERATION_UNSUPPORTED
 * and a message saying so; when only such channels were asked, the answer is that 400.
 */
export class ContactSyncService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'channels'>) {}

  async sync(auth: AuthContext, input: ContactSyncInput): Promise<ContactSyncAnswer> {
    authorizeContactAction(auth, 'import');
    const channels =
      input.whatsappId !== undefined
        ? [await this.deps.channels.load(auth.tenantId, input.whatsappId)]
        : ((await this.deps.dataSource.query(`SELECT * FROM channels WHERE "tenantId" = $1 ORDER BY id`, [auth.tenantId])) as ChannelRow[]).map(
            toChannelRecord,
          );
    if (channels.length === 0) {
      throw new AppError('ERR_NO_DEF_WAPP_FOUND', {
        status: 400,
        message: 'Nenhuma conexão cadastrada: crie uma conexão por QR code para sincronizar os contatos do celular.',
      });
    }
    const results: ContactSyncChannelResult[] = [];
    for (const channel of channels) {
      const adapter = adapterOrNone(this.deps.channels, channel);
      const base = { whatsappId: channel.id, name: channel.name, type: channel.type, created: 0, updated: 0, skipped: 0 };
      if (!adapter?.phoneContacts) {
        results.push({ ...base, error: 'ERR_CHANNEL_OPERATION_UNSUPPORTED', message: NO_PHONE_CONTACTS(channel) });
        continue;
      }
      results.push({ ...base, ...(await this.importContacts(auth, channel, await adapter.phoneContacts())) });
    }
    if (results.every((r) => r.error)) {
      throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
        message:
          results.length === 1
            ? results[0].message
            : `Nenhuma conexão desta empresa dá acesso aos contatos do celular (tipos: ${[...new Set(results.map((r) => r.type))].join(', ')}); apenas conexões por QR code (Baileys) sincronizam contatos.`,
        details: { channels: results },
      });
    }
    return {
      created: results.reduce((n, r) => n + r.created, 0),
      updated: results.reduce((n, r) => n + r.updated, 0),
      skipped: results.reduce((n, r) => n + r.skipped, 0),
      channels: results,
    };
  }

  private async importContacts(
    auth: AuthContext,
    channel: ChannelRecord,
    contacts: PhoneContact[],
  ): Promise<{ created: number; updated: number; skipped: number }> {
    let skipped = 0;
    const byNumber = new Map<string, { number: string; digits: string; name: string; saved: string | null; notify: string | null }>();
    for (const c of contacts) {
      const digits = c.phone?.replace(/\D/g, '') ?? '';
      const number = digits ? (normalizeContactNumber(`+${digits}`) ?? digits) : null;
      if (!number || byNumber.has(number)) {
        skipped++;
        continue;
      }
      byNumber.set(number, { number, digits, name: (c.name || c.notify || number).slice(0, 255), saved: c.name, notify: c.notify });
    }
    if (byNumber.size === 0) return { created: 0, updated: 0, skipped };
    const entries = [...byNumber.values()];
    return this.deps.events.transaction(async (tx, emit) => {
      const existing: { id: number; number: string; name: string }[] = await tx.query(
        `SELECT id, number, name FROM contacts WHERE "tenantId" = $1 AND number = ANY($2::text[])`,
        [auth.tenantId, entries.map((e) => e.number)],
      );
      const known = new Map(existing.map((r) => [r.number, r]));
      const fresh = entries.filter((e) => !known.has(e.number));
      const created: { id: number; number: string }[] = fresh.length
        ? await tx.query(
            `INSERT INTO contacts ("tenantId", name, number)
             SELECT $1, u.name, u.number FROM unnest($2::text[], $3::text[]) AS u(name, number)
             ON CONFLICT ("tenantId", number) WHERE number IS NOT NULL DO NOTHING
             RETURNING id, number`,
            [auth.tenantId, fresh.map((e) => e.name), fresh.map((e) => e.number)],
          )
        : [];
      if (created.length > 0) {
        const digitsOf = new Map(fresh.map((e) => [e.number, e.digits]));
        await tx.query(
          `INSERT INTO contact_identities ("tenantId", "contactId", kind, "externalId", "channelId")
           SELECT $1, u.id, 'wa', u.ext, $4 FROM unnest($2::int[], $3::text[]) AS u(id, ext)
           ON CONFLICT ("tenantId", kind, "externalId") DO NOTHING`,
          [auth.tenantId, created.map((c) => c.id), created.map((c) => digitsOf.get(c.number)!), channel.id],
        );
      }
      // Another writer created some of them meanwhile: those count as skipped.
      skipped += fresh.length - created.length;
      const renames: { id: number; name: string }[] = [];
      for (const e of entries) {
        const row = known.get(e.number);
        if (!row) continue;
        const generic = row.name === row.number || row.name.replace(/\D/g, '') === e.digits || (e.notify !== null && row.name === e.notify);
        if (e.saved && generic && row.name !== e.saved) renames.push({ id: row.id, name: e.saved.slice(0, 255) });
        else skipped++;
      }
      if (renames.length > 0) {
        await tx.query(
          `UPDATE contacts c SET name = u.name, "updatedAt" = now() FROM unnest($2::int[], $3::text[]) AS u(id, name)
            WHERE c.id = u.id AND c."tenantId" = $1`,
          [auth.tenantId, renames.map((r) => r.id), renames.map((r) => r.name)],
        );
      }
      if (created.length > 0 || renames.length > 0) {
        const payload: ContactEventPayload = { action: 'bulk', source: 'sync', contactIds: [...created.map((c) => c.id), ...renames.map((r) => r.id)] };
        await emit(auth.tenantId, SOCKET_EVENTS.contactUpdate, payload);
      }
      return { created: created.length, updated: renames.length, skipped };
    });
  }
}
