import { Callout, Card, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { AgentNowRow } from '@shared/schemas/statistics';
import { formatDuration } from './dashboard-format';

export interface AgentsNowProps {
  rows: AgentNowRow[] | undefined;
  isLoading: boolean;
  isError: boolean;
}

/** Agents online now with their open and pending tickets and the longest wait among them. */
export function AgentsNow({ rows, isLoading, isError }: AgentsNowProps) {
  const { t } = useTranslation();
  const online = (rows ?? []).filter((row) => row.online);
  let body;
  if (isError && !rows)
    body = (
      <Callout intent="warning" icon="error">
        {t('dashboard.loadFailed')}
      </Callout>
    );
  else if (isLoading && !rows) body = <Spinner size={30} />;
  else if (online.length === 0) body = <NonIdealState icon="person" description={t('dashboard.agents.noneOnline')} />;
  else
    body = (
      <HTMLTable compact striped className="dashboard-agents-table" data-testid="agents-table">
        <thead>
          <tr>
            <th>{t('dashboard.agents.name')}</th>
            <th className="dashboard-num">{t('dashboard.open')}</th>
            <th className="dashboard-num">{t('dashboard.pending')}</th>
            <th className="dashboard-num">{t('dashboard.agents.oldestWaiting')}</th>
          </tr>
        </thead>
        <tbody>
          {online.map((row) => (
            <tr key={row.userId} data-testid="agent-row" data-user-id={row.userId}>
              <td>
                <span className="presence-dot is-online" aria-hidden />
                {row.name}
              </td>
              <td className="dashboard-num" data-testid="agent-open">
                {row.open}
              </td>
              <td className="dashboard-num">{row.pending}</td>
              <td className="dashboard-num">{formatDuration(row.oldestWaitingSeconds)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );
  return (
    <Card className="dashboard-agents" data-testid="agents-now">
      <div className="dashboard-card-head">
        <h3 className="dashboard-card-title">{t('dashboard.agents.title')}</h3>
        {rows ? (
          <Tag minimal round intent="success" data-testid="agents-online-count">
            {t('dashboard.agents.onlineCount', { count: online.length })}
          </Tag>
        ) : null}
      </div>
      {body}
    </Card>
  );
}
