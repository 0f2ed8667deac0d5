import {
  isCampaignEditable,
  type CampaignContactsAnswer,
  type CampaignContactsQuery,
  type LinkCampaignContactsAnswer,
  type LinkCampaignContactsInput,
} from '@shared/schemas/campaigns';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { contactFilterConditions } from '../contacts/contact-list.query';
import { authorizeCampaigns } from './campaigns.policy';
import { EMPTY_COUNTS, presentCampaign, presentCampaignContact, type CampaignContactRow } from './campaigns.presenter';
import { emitCampaign, loadCampaign } from './campaigns.service';

/**
 * The contacts of a campaign (POST/GET /campaigns/contacts/{campaignId}, DELETE one or all).
 * Contacts are linked and unlinked only while the campaign is pending or canceled (spec section 4:
 * the campaign is being edited); a canceled campaign keeps what it sent, so only its rows still
 * pending are removed by "remove all". Groups are never linked.
 */
export class CampaignContactsService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events'>) {}

  async link(auth: AuthContext, campaignId: number, input: LinkCampaignContactsInput): Promise<LinkCampaignContactsAnswer> {
    authorizeCampaigns(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      const campaign = await loadCampaign(tx, auth.tenantId, campaignId, true);
      if (!isCampaignEditable(campaign.status)) throw new AppError('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
      const ids = [...new Set(input.contactIds ?? [])];
      if (ids.length > 0) {
        const [found] = (await tx.query(
          `SELECT count(*)::int AS n FROM contacts WHERE "tenantId" = $1 AND id = ANY($2::int[]) AND NOT "isGroup"`,
          [auth.tenantId, ids],
        )) as { n: number }[];
        // Another tenant's contact, a group or an id that names nothing: refused as a whole, nothing linked.
        if (found.n !== ids.length) throw new AppError('ERR_CAMPAIGN_CONTACTS_NOT_EXISTS_OR_NOT_ACESSIBLE');
      }
      const sources: string[] = [];
      const params: unknown[] = [campaignId, auth.tenantId];
      if (ids.length > 0) {
        params.push(ids);
        sources.push(`SELECT id FROM contacts WHERE "tenantId" = $2 AND id = ANY($${params.length}::int[])`);
      }
      if (input.filter) {
        const { all, ...filters } = input.filter;
        const { tenant, rest } = contactFilterConditions(auth.tenantId, filters, params);
        if (all || rest.length > 0) sources.push(`SELECT c.id FROM contacts c WHERE ${[tenant, ...rest, 'NOT c."isGroup"'].join(' AND ')}`);
      }
      if (sources.length === 0) {
        throw new AppError('ERR_VALIDATION', { fields: [{ path: 'filter', message: 'o filtro não seleciona nenhum contato' }] });
      }
      const inserted = (await tx.query(
        `WITH added AS (
           INSERT INTO campaign_contacts ("campaignId", "tenantId", "contactId")
           SELECT $1, $2, s.id FROM (${sources.join(' UNION ')}) s ORDER BY s.id
           ON CONFLICT ("campaignId", "contactId") DO NOTHING
           RETURNING 1
         ) SELECT count(*)::int AS n FROM added`,
        params,
      )) as { n: number }[];
      await tx.query(`UPDATE campaigns SET "updatedAt" = now() WHERE id = $1`, [campaignId]);
      const dto = await emitCampaign(tx, emit, auth.tenantId, campaignId, 'update');
      return { added: inserted[0]?.n ?? 0, counts: dto.counts };
    });
  }

  async unlink(auth: AuthContext, campaignId: number, contactId: number | 'all'): Promise<LinkCampaignContactsAnswer> {
    authorizeCampaigns(auth);
    return this.deps.events.transaction(async (tx, emit) => {
      const campaign = await loadCampaign(tx, auth.tenantId, campaignId, true);
      if (!isCampaignEditable(campaign.status)) throw new AppError('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
      if (contactId === 'all') {
        await tx.query(`DELETE FROM campaign_contacts WHERE "campaignId" = $1 AND "tenantId" = $2 AND status = 'pending'`, [
          campaignId,
          auth.tenantId,
        ]);
      } else {
        const removed = (await tx.query(
          `WITH gone AS (DELETE FROM campaign_contacts WHERE "campaignId" = $1 AND "tenantId" = $2 AND "contactId" = $3 RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
          [campaignId, auth.tenantId, contactId],
        )) as { n: number }[];
        if (removed[0].n === 0) throw new AppError('ERR_CAMPAIGN_CONTACTS_NOT_EXISTS');
      }
      await tx.query(`UPDATE campaigns SET "updatedAt" = now() WHERE id = $1`, [campaignId]);
      const dto = await emitCampaign(tx, emit, auth.tenantId, campaignId, 'update');
      return { added: 0, counts: dto.counts };
    });
  }

  async list(auth: AuthContext, campaignId: number, query: CampaignContactsQuery): Promise<CampaignContactsAnswer & { campaign: ReturnType<typeof presentCampaign> }> {
    authorizeCampaigns(auth);
    const db = this.deps.dataSource;
    const campaign = presentCampaign(await loadCampaign(db, auth.tenantId, campaignId));
    const params: unknown[] = [campaignId, auth.tenantId, query.pageSize, (query.pageNumber - 1) * query.pageSize];
    let statusFilter = '';
    if (query.status) {
      params.push(query.status);
      statusFilter = `AND cc.status = $${params.length}`;
    }
    const rows = (await db.query(
      `SELECT cc.id, cc."contactId", c.name, c.number, cc.status, cc."messageIndex", cc."messageId", cc.error, cc."sentAt",
              c."campaignOptOut" AS "optedOut"
         FROM campaign_contacts cc JOIN contacts c ON c.id = cc."contactId" AND c."tenantId" = cc."tenantId"
        WHERE cc."campaignId" = $1 AND cc."tenantId" = $2 ${statusFilter}
        ORDER BY cc.id
        LIMIT $3 OFFSET $4`,
      params,
    )) as CampaignContactRow[];
    const counts = campaign.counts ?? EMPTY_COUNTS;
    const count = query.status ? counts[query.status] : counts.contacts;
    return {
      campaign,
      contacts: rows.map(presentCampaignContact),
      count,
      hasMore: query.pageNumber * query.pageSize < count,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
    };
  }
}
