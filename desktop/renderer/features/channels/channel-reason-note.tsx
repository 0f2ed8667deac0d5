import { Callout, type Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { explainChannelReason } from './channel-reason';

/**
 * Why a channel's session is not connected: our sentence or the Portuguese explanation of the
 * provider's error, with the provider's raw text folded under "Detalhes técnicos".
 */
export function ChannelReasonNote({ reason, intent, className }: { reason: string | null; intent: Intent; className?: string }) {
  const { t } = useTranslation();
  const view = explainChannelReason(reason);
  if (!view) return null;
  return (
    <Callout intent={intent} icon={null} className={className} data-testid="channel-status-reason">
      {view.own ? <p className="channel-reason-own">{view.own}</p> : null}
      {view.kind ? (
        <p className="channel-reason-explanation" data-testid="channel-reason-explanation" data-kind={view.kind}>
          {t(`channels.reason.${view.kind}`)}
        </p>
      ) : null}
      {view.detail ? (
        <details className="channel-reason-detail" data-testid="channel-reason-detail">
          <summary>{t('channels.reason.details')}</summary>
          <code>{view.detail}</code>
        </details>
      ) : null}
    </Callout>
  );
}
