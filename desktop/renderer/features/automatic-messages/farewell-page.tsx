import { useTranslation } from 'react-i18next';
import { ChannelFormsList } from './channel-list';
import { FarewellChannelForm } from './channel-message-forms';
import '../../app/crud/crud.css';
import { PageHeader } from '../../app/layout/page-header';

/**
 * /fechamento (spec section 2, "closing messages"): each channel's farewell message, sent when a
 * ticket of the channel is resolved (the ticket closes 30 s later), with its variables filled.
 */
export function FarewellPage() {
  const { t } = useTranslation();
  return (
    <div className="page crud-page" data-testid="page-fechamento">
      <PageHeader title={t('routes.fechamento')} description={t('automaticMessages.farewellDescription')} />
      <ChannelFormsList testId="farewell-channels" render={(channel) => <FarewellChannelForm channel={channel} />} />
    </div>
  );
}
