import { Button, Card, HTMLTable, Tag, type Intent } from '@blueprintjs/core';
import { TERMINAL_COMMANDS, type TerminalAuditRow, type TerminalResultView } from '@shared/schemas/platform-ops';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetTerminalAuditQuery, useRunTerminalCommandMutation } from '../../api/platform-ops.api';
import { CrudPage } from '../../app/crud/crud-page';
import { formatDateTime } from './platform-format';
import './platform-ops.css';

const OUTCOME_INTENT: Record<TerminalAuditRow['outcome'], Intent> = { ok: 'success', error: 'danger', refused: 'warning' };

/**
 * /terminal: runs one command of the fixed list (the server implements each in Node; there is
 * no shell and no argument) and shows the audit trail of every use.
 */
export function TerminalPage() {
  const { t, i18n } = useTranslation();
  const audit = useGetTerminalAuditQuery();
  const [run, running] = useRunTerminalCommandMutation();
  const [result, setResult] = useState<TerminalResultView | null>(null);
  const rows = audit.data ?? [];

  const execute = async (command: (typeof TERMINAL_COMMANDS)[number]) => {
    const answer = await run(command);
    if ('data' in answer && answer.data) setResult(answer.data);
  };

  return (
    <CrudPage
      routeId="terminal"
      description={t('platformOps.terminal.description')}
      list={audit}
      isEmpty={false}
      empty={{ icon: 'console', title: '' }}
    >
      <div className="platform-toolbar">
        {TERMINAL_COMMANDS.map((command) => (
          <Button
            key={command}
            icon="console"
            text={command}
            title={t(`platformOps.terminal.commands.${command}`)}
            loading={running.isLoading && running.originalArgs === command}
            disabled={running.isLoading}
            onClick={() => void execute(command)}
            data-testid={`terminal-run-${command}`}
          />
        ))}
      </div>
      <Card data-testid="terminal-output-card">
        {result ? (
          <>
            <p>
              <code>$ {result.command}</code>{' '}
              <Tag minimal intent={OUTCOME_INTENT[result.outcome]}>
                {t(`platformOps.terminal.outcomes.${result.outcome}`)}
              </Tag>{' '}
              <span className="crud-muted">{formatDateTime(result.at, i18n.language)}</span>
            </p>
            <pre className="platform-output" data-testid="terminal-output">
              {result.output}
            </pre>
          </>
        ) : (
          <p className="crud-muted">{t('platformOps.terminal.noOutput')}</p>
        )}
      </Card>
      <div className="platform-section">
        <h4>{t('platformOps.terminal.audit')}</h4>
        {rows.length === 0 ? (
          <p className="crud-muted">{t('platformOps.terminal.auditEmpty')}</p>
        ) : (
          <HTMLTable className="crud-table" striped compact data-testid="terminal-audit">
            <thead>
              <tr>
                <th>{t('platformOps.terminal.columns.when')}</th>
                <th>{t('platformOps.terminal.columns.who')}</th>
                <th>{t('platformOps.terminal.columns.command')}</th>
                <th>{t('platformOps.terminal.columns.outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="terminal-audit-row">
                  <td>{formatDateTime(row.createdAt, i18n.language)}</td>
                  <td>{row.userName}</td>
                  <td>
                    <code>{row.command}</code>
                  </td>
                  <td>
                    <Tag minimal intent={OUTCOME_INTENT[row.outcome]}>
                      {t(`platformOps.terminal.outcomes.${row.outcome}`)}
                    </Tag>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </div>
    </CrudPage>
  );
}
