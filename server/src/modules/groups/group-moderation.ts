import type { ChannelAdapter, ChannelRecord, GroupMember, GroupParticipantsEvent } from '../../channels/channel-adapter';
import type { AppDeps } from '../../deps';
import { emitMessages } from '../messages/message-events';
import { loadTicket } from '../messages/message-ticket';
import type { InboundEvent } from '../messaging/inbound/inbound-hooks';
import { applyParticipantsChange, groupByJid, storeGroups } from './group-store';

/** Order of the forbidden-words hook: before every other hook (a deleted message is not a rating, a bot input …). */
export const GROUP_RULES_HOOK_ORDER = 50;

type ModerationDeps = Pick<AppDeps, 'dataSource' | 'events' | 'channels' | 'logger'>;

/** The user part of a JID, as WhatsApp writes a mention in the text (`@5511…`). */
const mentionTag = (jid: string) => `@${jid.split('@')[0].split(':')[0]}`;

/** A forbidden word appears in the text as a whole word (letters and digits around it do not count). */
export function containsWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(text.toLowerCase());
}

/**
 * What the group rules do with a channel's group events (issue #16 part 5), wired to the inbound
 * pipeline by group-wiring.ts:
 * - groups joined or changed (`groups.upsert` / `groups.update`): stored (group-store.ts);
 * - members changed: stored; a member who joins with a banned number is removed at once; the
 *   others get the group's greeting; members who leave get the farewell (not the banned ones
 *   we removed). Greetings and farewells name the members (`@number`) and mention them;
 * - an inbound group message with a forbidden word (hook GROUP_RULES_HOOK_ORDER) is deleted for
 *   everyone and marked deleted here; its sender is warned (a mention) or removed, as the word says.
 * A rule without a group applies to every group of its channel. These texts go straight to the
 * provider, not through the outbound queue: they belong to no ticket, and a greeting sent late
 * (after a restart) would greet someone who may have left.
 */
export class GroupModeration {
  constructor(private readonly deps: ModerationDeps) {}

  private async adapterOf(tenantId: number, channelId: number): Promise<{ channel: ChannelRecord; adapter: ChannelAdapter } | null> {
    try {
      const channel = await this.deps.channels.load(tenantId, channelId);
      return { channel, adapter: this.deps.channels.adapterFor(channel) };
    } catch {
      return null;
    }
  }

  /** The stored group of an event (fetched from the provider and stored when it is new to us). */
  private async groupIdOf(channel: ChannelRecord, adapter: ChannelAdapter, jid: string): Promise<number | null> {
    const known = await groupByJid(this.deps.dataSource, channel.id, jid);
    if (known) return known.id;
    if (!adapter.groups) return null;
    try {
      const [row] = await storeGroups(this.deps, channel, [await adapter.groups.get(jid)]);
      return row?.id ?? null;
    } catch (err) {
      this.deps.logger.warn({ err, channelId: channel.id, group: jid }, 'group not stored');
      return null;
    }
  }

  async onParticipants(event: GroupParticipantsEvent): Promise<void> {
    const found = await this.adapterOf(event.tenantId, event.channelId);
    if (!found) return;
    const { channel, adapter } = found;
    const groupId = await this.groupIdOf(channel, adapter, event.groupId);
    await applyParticipantsChange(this.deps, event, channel.number);
    const others = event.participants.filter((p) => !channel.number || p.phone !== channel.number);
    if (others.length === 0 || (event.action !== 'add' && event.action !== 'remove')) return;

    const bannedNumbers = await this.bannedNumbers(channel, groupId, others);
    const banned = others.filter((p) => p.phone && bannedNumbers.has(p.phone));
    const welcome = others.filter((p) => !banned.includes(p));
    if (event.action === 'add') {
      if (banned.length > 0 && adapter.groups) {
        await adapter.groups
          .updateParticipants(event.groupId, banned.map((p) => p.id), 'remove')
          .then(() => this.deps.logger.info({ channelId: channel.id, group: event.groupId, removed: banned.length }, 'banned numbers removed from group'))
          .catch((err) => this.deps.logger.warn({ err, channelId: channel.id, group: event.groupId }, 'banned numbers not removed'));
      }
      if (welcome.length > 0) await this.sendTexts(channel, adapter, groupId, event.groupId, 'greeting', welcome);
    } else if (welcome.length > 0) {
      await this.sendTexts(channel, adapter, groupId, event.groupId, 'farewell', welcome);
    }
  }

  private async bannedNumbers(channel: ChannelRecord, groupId: number | null, members: GroupMember[]): Promise<Set<string>> {
    const phones = members.map((m) => m.phone).filter((p): p is string => Boolean(p));
    if (phones.length === 0) return new Set();
    const rows: { number: string }[] = await this.deps.dataSource.query(
      `SELECT number FROM group_bans WHERE "tenantId" = $1 AND "channelId" = $2 AND ("groupId" IS NULL OR "groupId" = $3) AND number = ANY($4::text[])`,
      [channel.tenantId, channel.id, groupId, phones],
    );
    return new Set(rows.map((r) => r.number));
  }

  private async texts(channel: ChannelRecord, groupId: number | null, kind: 'word' | 'greeting' | 'farewell') {
    return (await this.deps.dataSource.query(
      `SELECT text, action FROM group_texts WHERE "tenantId" = $1 AND "channelId" = $2 AND kind = $3 AND ("groupId" IS NULL OR "groupId" = $4)
        ORDER BY ("groupId" IS NULL), id`,
      [channel.tenantId, channel.id, kind, groupId],
    )) as { text: string; action: 'warn' | 'remove' | null }[];
  }

  private async sendTexts(
    channel: ChannelRecord,
    adapter: ChannelAdapter,
    groupId: number | null,
    groupJid: string,
    kind: 'greeting' | 'farewell',
    members: GroupMember[],
  ): Promise<void> {
    const texts = await this.texts(channel, groupId, kind);
    const tags = members.map((m) => mentionTag(m.id)).join(' ');
    for (const { text } of texts) {
      await adapter
        .sendText({ to: groupJid, isGroup: true }, `${tags} ${text}`, { mentions: members.map((m) => m.id) })
        .catch((err) => this.deps.logger.warn({ err, channelId: channel.id, group: groupJid, kind }, 'group message not sent'));
    }
  }

  /** Inbound hook: a group message with a forbidden word. */
  async onMessage(event: InboundEvent): Promise<void | 'handled'> {
    const sender = event.inbound.groupSender;
    if (!event.ticket.isGroup || !sender || !sender.text.trim()) return;
    const found = await this.adapterOf(event.tenantId, event.channel.id);
    if (!found?.adapter.groups) return;
    const { channel, adapter } = found;
    const groupJid = event.inbound.from.externalId;
    const group = await groupByJid(this.deps.dataSource, channel.id, groupJid);
    const words = await this.texts(channel, group?.id ?? null, 'word');
    const hit = words.find((w) => containsWord(sender.text, w.text));
    if (!hit) return;
    const groups = adapter.groups!;
    try {
      await groups.deleteMessage(groupJid, event.inbound.providerMessageId, sender.id);
    } catch (err) {
      this.deps.logger.warn({ err, channelId: channel.id, group: groupJid }, 'message with a forbidden word not deleted (is the connection a group admin?)');
    }
    await this.deps.events.transaction(async (tx, emit) => {
      await tx.query(`UPDATE messages SET "isDeleted" = true, "updatedAt" = now() WHERE id = $1 AND "tenantId" = $2`, [
        event.messageId,
        event.tenantId,
      ]);
      const ticket = await loadTicket(tx, event.ticket.id);
      if (ticket) await emitMessages(tx, emit, ticket, 'update', [event.messageId]);
    });
    if (hit.action === 'remove') {
      await groups
        .updateParticipants(groupJid, [sender.id], 'remove')
        .catch((err) => this.deps.logger.warn({ err, channelId: channel.id, group: groupJid }, 'sender of a forbidden word not removed'));
    } else {
      const warning = `${mentionTag(sender.id)} sua mensagem foi apagada: ela contém uma palavra proibida neste grupo.`;
      await adapter
        .sendText({ to: groupJid, isGroup: true }, warning, { mentions: [sender.id] })
        .catch((err) => this.deps.logger.warn({ err, channelId: channel.id, group: groupJid }, 'forbidden word warning not sent'));
    }
    return 'handled';
  }
}
