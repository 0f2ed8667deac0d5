import { DEFAULT_SETTINGS } from '@shared/settings';
import { foldOptOutText, optOutWords } from '@shared/schemas/campaigns';
import type { AppDeps } from '../../deps';
import type { InboundEvent } from '../messaging/inbound/inbound-hooks';
import { channelAutomationOf, isClosingKeyword } from '../tickets/ticket-automation';

/** Before every other hook (ratings are 100): an opt-out word is not a rating, a menu choice or a question for the bot. */
export const CAMPAIGN_OPT_OUT_HOOK_ORDER = 50;

/**
 * Campaign opt-out (issue #16): an inbound text that is exactly one of the tenant's opt-out words
 * (setting `campaignOptOutWords`, default "SAIR, PARAR"; case, accents and surrounding punctuation
 * ignored) marks the contact `campaignOptOut`. Later campaign sends to it fail with
 * CAMPAIGN_OPTED_OUT_REASON instead of going out (they stay in the report). The message itself is
 * stored in the ticket like any other; the hook answers 'handled' so no bot replies to it, except
 * when the word is also the channel's closing keyword (both "SAIR" by default in the anchor): then
 * the chain goes on and the channel rules close the ticket as well.
 */
export function registerCampaignOptOut(deps: Pick<AppDeps, 'channels' | 'dataSource' | 'logger'>): void {
  deps.channels.inbound.useHook({
    name: 'campaign-opt-out',
    order: CAMPAIGN_OPT_OUT_HOOK_ORDER,
    run: async (event: InboundEvent) => {
      if (event.ticket.isGroup || event.inbound.type !== 'chat') return;
      const text = foldOptOutText(event.inbound.body ?? '');
      if (!text || text.length > 60) return;
      const [setting] = (await deps.dataSource.query(
        `SELECT value FROM settings WHERE "tenantId" = $1 AND key = 'campaignOptOutWords'`,
        [event.tenantId],
      )) as { value: string }[];
      if (!optOutWords(setting?.value ?? DEFAULT_SETTINGS.campaignOptOutWords).includes(text)) return;
      await deps.dataSource.query(
        `UPDATE contacts SET "campaignOptOut" = true, "campaignOptOutAt" = COALESCE("campaignOptOutAt", now())
          WHERE id = $1 AND "tenantId" = $2`,
        [event.contact.id, event.tenantId],
      );
      deps.logger.info({ tenantId: event.tenantId, contactId: event.contact.id }, 'contact opted out of campaigns');
      const automation = await channelAutomationOf(deps.dataSource, event.tenantId, event.channel.id);
      return automation && isClosingKeyword(event.inbound.body ?? '', automation.closingKeyword) ? undefined : 'handled';
    },
  });
}
