import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import type { ChannelDto } from '@shared/schemas/channels';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useListChannelsQuery } from '../../api/channels.api';

/**
 * The tenant's channels, each with its own form (`render`). A form is keyed by the channel's
 * `updatedAt`, so a save (here or by someone else) starts it again from the stored values.
 */
export function ChannelFormsList({ render, testId }: { render(channel: ChannelDto): ReactElement; testId: string }) {
  const { t } = useTranslation();
  const channels = useListChannelsQuery();
  if (channels.isLoading) return <NonIdealState icon={<Spinner size={30} />} title={t('common.loading')} />;
  if (channels.isError || !channels.data) {
    return (
      <NonIdealState
        icon="warning-sign"
        title={t('crud.loadFailed')}
        action={<Button icon="refresh" text={t('common.retry')} onClick={() => void channels.refetch()} />}
      />
    );
  }
  if (channels.data.length === 0) {
    return (
      <div data-testid={`${testId}-empty`}>
        <NonIdealState
          icon="offline"
          title={t('automaticMessages.noChannels')}
          action={<Link to="/sessoes">{t('automaticMessages.openChannels')}</Link>}
        />
      </div>
    );
  }
  return (
    <div className="auto-message-channels" data-testid={testId}>
      {channels.data.map((channel) => (
        <div key={`${channel.id}:${channel.updatedAt}`}>{render(channel)}</div>
      ))}
    </div>
  );
}
