import { H3 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ChannelFormsList } from './channel-list';
import { FarewellChannelForm } from './channel-message-forms';
import '../../app/crud/crud.css';

/**
 * /fechamento (spec section 2, "closing messages"): each channel's farewell message, sent when a
 * ticket of the channel is resolved (the ticket closes 30 s later), with its variables filled.
 */
export function FarewellPage() {
  const { t } = useTranslation();
  return (
    <div className="page crud-page" data-testid="page-fechamento">
      <header className="crud-page-header">
        <div>
          <H3 className="crud-page-title">{t('routes.fechamento')}</H3>
          <p className="crud-page-description">{t('automaticMessages.farewellDescription')}</p>
        </div>
      </header>
      <ChannelFormsList testId="farewell-channels" render={(channel) => <FarewellChannelForm channel={channel} />} />
    </div>
  );
}
