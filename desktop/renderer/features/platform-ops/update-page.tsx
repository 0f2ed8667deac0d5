import { Button, Callout, FileInput, FormGroup, HTMLTable, Icon, ProgressBar, Tag, type Intent } from '@blueprintjs/core';
import type { PlatformUpdateView, UpdateStepView } from '@shared/schemas/platform-ops';
import { UPDATE_FILE_NAME } from '@shared/limits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-mapper';
import { useListUpdatesQuery, useUploadUpdateMutation } from '../../api/platform-ops.api';
import { CrudPage } from '../../app/crud/crud-page';
import { formatDateTime } from './platform-format';
import './platform-ops.css';

const STATUS_INTENT: Record<PlatformUpdateView['status'], Intent> = { applied: 'success', failed: 'danger', refused: 'warning' };

function Steps({ steps }: { steps: UpdateStepView[] }) {
  const { t } = useTranslation();
  return (
    <div className="platform-steps" data-testid="update-steps">
      {steps.map((step) => (
        <Callout
          key={step.step}
          compact
          intent={step.status === 'ok' ? 'success' : 'danger'}
          icon={step.status === 'ok' ? 'tick-circle' : 'error'}
          title={t(`platformOps.update.steps.${step.step}`)}
          data-testid={`update-step-${step.step}`}
        >
          {step.detail} <span className="crud-muted">({step.durationMs} ms)</span>
        </Callout>
      ))}
    </div>
  );
}

/**
 * /atualizar: sends update_rapido.zip with its detached Ed25519 signature; the server refuses
 * any other name and anything unsigned, stages the package (never over running code), runs the
 * pending migrations and the file clean, and answers each step, shown here as it finished.
 */
export function UpdatePage() {
  const { t, i18n } = useTranslation();
  const history = useListUpdatesQuery();
  const [upload, uploading] = useUploadUpdateMutation();
  const [file, setFile] = useState<File | null>(null);
  const [signature, setSignature] = useState<File | null>(null);
  const [result, setResult] = useState<PlatformUpdateView | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const updates = history.data ?? [];

  const send = async () => {
    if (!file) return;
    setResult(null);
    setFailure(null);
    const answer = await upload({ file, signature });
    if ('error' in answer) setFailure(describeError(answer.error, t));
    else if (answer.data) setResult(answer.data);
  };

  return (
    <CrudPage
      routeId="atualizar"
      description={t('platformOps.update.description')}
      list={{ isLoading: false, isError: false, refetch: history.refetch }}
      isEmpty={false}
      empty={{ icon: 'cloud-upload', title: '' }}
    >
      <div className="platform-upload">
        <FormGroup label={t('platformOps.update.packageLabel')} labelFor="update-file">
          <FileInput
            fill
            text={file?.name ?? t('platformOps.update.choosePackage')}
            buttonText={t('platformOps.update.browse')}
            hasSelection={Boolean(file)}
            inputProps={{ id: 'update-file', accept: '.zip,application/zip', 'data-testid': 'update-file' } as object}
            onInputChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          />
        </FormGroup>
        <FormGroup label={t('platformOps.update.signatureLabel')} labelFor="update-signature">
          <FileInput
            fill
            text={signature?.name ?? t('platformOps.update.chooseSignature')}
            buttonText={t('platformOps.update.browse')}
            hasSelection={Boolean(signature)}
            inputProps={{ id: 'update-signature', 'data-testid': 'update-signature' } as object}
            onInputChange={(event) => setSignature(event.currentTarget.files?.[0] ?? null)}
          />
        </FormGroup>
        <FormGroup>
          <Button
            intent="primary"
            icon="cloud-upload"
            text={t('platformOps.update.send')}
            disabled={!file}
            loading={uploading.isLoading}
            onClick={() => void send()}
            data-testid="update-send"
          />
        </FormGroup>
      </div>
      <p className="crud-muted">
        <Icon icon="info-sign" size={12} /> {UPDATE_FILE_NAME}
      </p>
      {uploading.isLoading ? (
        <div data-testid="update-progress">
          <p>{t('platformOps.update.sending')}</p>
          <ProgressBar intent="primary" />
        </div>
      ) : null}
      {failure ? (
        <Callout intent="danger" icon="error" role="alert" data-testid="update-error">
          {failure}
        </Callout>
      ) : null}
      {result ? (
        <div className="platform-section" data-testid="update-result">
          <h4>
            {t('platformOps.update.result')}:{' '}
            <Tag intent={STATUS_INTENT[result.status]}>{t(`platformOps.update.status.${result.status}`)}</Tag>
          </h4>
          <Steps steps={result.steps} />
        </div>
      ) : null}
      <div className="platform-section">
        <h4>{t('platformOps.update.history')}</h4>
        {updates.length === 0 ? (
          <p className="crud-muted">{t('platformOps.update.historyEmpty')}</p>
        ) : (
          <HTMLTable className="crud-table" striped compact data-testid="update-history">
            <thead>
              <tr>
                <th>{t('platformOps.update.columns.when')}</th>
                <th>{t('platformOps.update.columns.file')}</th>
                <th>{t('platformOps.update.columns.status')}</th>
                <th>{t('platformOps.update.columns.by')}</th>
                <th>{t('platformOps.update.columns.staged')}</th>
              </tr>
            </thead>
            <tbody>
              {updates.map((u) => (
                <tr
                  key={u.id}
                  data-testid="update-history-row"
                  title={u.steps.map((s) => `${t(`platformOps.update.steps.${s.step}`)}: ${s.detail}`).join('\n')}
                >
                  <td>{formatDateTime(u.createdAt, i18n.language)}</td>
                  <td>
                    <code>{u.fileName}</code>
                  </td>
                  <td>
                    <Tag minimal intent={STATUS_INTENT[u.status]}>
                      {t(`platformOps.update.status.${u.status}`)}
                    </Tag>{' '}
                    <span className="crud-muted">{u.steps.find((s) => s.status === 'failed')?.detail ?? ''}</span>
                  </td>
                  <td>{u.userName ?? '—'}</td>
                  <td>{u.stagedPath ? <code>{u.stagedPath}</code> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </div>
    </CrudPage>
  );
}
