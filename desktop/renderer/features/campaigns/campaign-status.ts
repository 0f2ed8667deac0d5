import type { Intent } from '@blueprintjs/core';
import type { CampaignCounts, CampaignStatus } from '@shared/schemas/campaigns';

export const STATUS_INTENT: Record<CampaignStatus, Intent> = {
  pending: 'none',
  scheduled: 'primary',
  processing: 'warning',
  canceled: 'danger',
  finished: 'success',
};

/** Contacts with an outcome (delivered or failed) and their share of the campaign (0..1). */
export function campaignProgress(counts: CampaignCounts): { done: number; ratio: number } {
  const done = counts.delivered + counts.failed;
  return { done, ratio: counts.contacts === 0 ? 0 : done / counts.contacts };
}
