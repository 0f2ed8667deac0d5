import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { CAMPAIGN_CONTACT_STATUSES, type CampaignContactStatus } from '@shared/schemas/campaigns';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableProps } from '../../app/table/data-table';

type OutcomeTableProps = Omit<DataTableProps, 'onPageSizeChange' | 'pageSizeOptions'> & {
  /** The label of the status filter. */
  statusLabel: string;
  status: CampaignContactStatus | '';
  /** A new filter or page size starts again at page 1 (the caller sets it). */
  onStatusChange(status: CampaignContactStatus | ''): void;
  onPageSizeChange(size: number): void;
  filterTestId: string;
};

/**
 * Per-contact outcomes of a campaign or a bulk send (delivered, pending, failed with the reason):
 * a status filter above a paged table. Changing the filter or the page size goes back to page 1.
 */
export function CampaignOutcomeTable({ statusLabel, status, onStatusChange, onPageSizeChange, filterTestId, ...table }: OutcomeTableProps) {
  const { t } = useTranslation();
  return (
    <>
      <FormGroup label={statusLabel} inline>
        <HTMLSelect
          value={status}
          onChange={(e) => {
            onStatusChange(e.currentTarget.value as CampaignContactStatus | '');
            table.onPageChange(1);
          }}
          data-testid={filterTestId}
        >
          <option value="">{t('campaigns.allStatuses')}</option>
          {CAMPAIGN_CONTACT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`campaigns.contactStatuses.${s}`)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <DataTable
        {...table}
        onPageSizeChange={(size) => {
          onPageSizeChange(size);
          table.onPageChange(1);
        }}
        pageSizeOptions={[20, 50, 100, 500]}
      />
    </>
  );
}
