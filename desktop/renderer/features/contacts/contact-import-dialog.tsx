import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  ProgressBar,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import {
  CONTACT_IMPORT_DATE_FORMATS,
  CONTACT_IMPORT_EXTENSIONS,
  CONTACT_IMPORT_MAX_BYTES,
  CONTACT_TEMPLATE_COLUMNS,
  type ContactImportDateFormat,
  type ContactImportStatus,
  type ContactImportSummaryDto,
} from '@shared/schemas/contacts';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDownloadImportTemplateMutation,
  useListContactImportsQuery,
  useUploadContactImportMutation,
  type ContactFileFormat,
} from '../../api/contacts.api';
import { isFinishedStatus, progressValue } from './import-progress';
import { useContactImportProgress } from './use-contact-import-progress';

/** Rejected lines drawn at once; a file with thousands of bad lines grows the table on request. */
const ERROR_ROWS_STEP = 200;

const hasImportExtension = (name: string) => CONTACT_IMPORT_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

function useStatusText() {
  const { t } = useTranslation();
  return (status: ContactImportStatus) => {
    switch (status) {
      case 'queued':
        return t('contacts.import.status.queued');
      case 'processing':
        return t('contacts.import.status.processing');
      case 'done':
        return t('contacts.import.status.done');
      case 'failed':
        return t('contacts.import.status.failed');
    }
  };
}

function useDateTime() {
  const { i18n } = useTranslation();
  return (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }) : '';
}

const statusIntent = (status: ContactImportStatus) =>
  status === 'done' ? 'success' : status === 'failed' ? 'danger' : status === 'processing' ? 'primary' : 'none';

/** The counts of an import (spec: total, criados, atualizados, duplicados, rejeitados). */
function ImportCounts({ summary }: { summary: ContactImportSummaryDto }) {
  const { t, i18n } = useTranslation();
  const counts = [
    { id: 'total', label: t('contacts.import.counts.total'), value: summary.total },
    { id: 'created', label: t('contacts.import.counts.created'), value: summary.created },
    { id: 'updated', label: t('contacts.import.counts.updated'), value: summary.updated },
    { id: 'duplicates', label: t('contacts.import.counts.duplicates'), value: summary.duplicates },
    { id: 'rejected', label: t('contacts.import.counts.rejected'), value: summary.rejected },
  ];
  return (
    <dl className="import-counts" data-testid="import-counts">
      {counts.map((count) => (
        <div key={count.id} className={`import-count import-count-${count.id}`} data-testid={`import-count-${count.id}`}>
          <dt>{count.label}</dt>
          <dd>{count.value.toLocaleString(i18n.language)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One import: live progress while it runs, then its report with every rejected line. */
function ImportProgressView({ importId }: { importId: string }) {
  const { t, i18n } = useTranslation();
  const statusText = useStatusText();
  const progress = useContactImportProgress(importId);
  const [shownErrors, setShownErrors] = useState(ERROR_ROWS_STEP);
  const summary = progress.summary;

  if (!summary) {
    return progress.readFailed ? (
      <NonIdealState icon="warning-sign" title={t('contacts.import.readFailed')} />
    ) : (
      <NonIdealState icon={<Spinner size={32} />} title={t('common.loading')} />
    );
  }

  const finished = isFinishedStatus(summary.status);
  const errors = progress.errors ?? [];
  return (
    <div className="import-progress" data-testid="import-progress" data-status={summary.status}>
      <div className="import-progress-head">
        <strong className="import-file-name">{summary.fileName}</strong>
        <Tag minimal intent={statusIntent(summary.status)} data-testid="import-status">
          {statusText(summary.status)}
        </Tag>
      </div>
      {finished ? null : (
        <>
          <ProgressBar
            value={progressValue(summary) / 100}
            intent="primary"
            stripes={summary.status === 'queued'}
            animate
            data-testid="import-progress-bar"
          />
          <p className="crud-muted import-progress-text" data-testid="import-progress-text">
            {t('contacts.import.progressText', {
              percent: Math.round(progressValue(summary)),
              processed: summary.processed.toLocaleString(i18n.language),
            })}
          </p>
        </>
      )}
      {summary.status === 'failed' ? (
        <Callout intent="danger" icon="error" data-testid="import-failure">
          {summary.failureReason ?? t('contacts.import.failedNoReason')}
        </Callout>
      ) : null}
      {summary.status === 'done' ? (
        <Callout intent="success" icon="tick-circle" data-testid="import-done">
          {t('contacts.import.doneText', {
            count: summary.created + summary.updated,
            amount: (summary.created + summary.updated).toLocaleString(i18n.language),
          })}
        </Callout>
      ) : null}
      <ImportCounts summary={summary} />
      {finished ? (
        <section className="import-errors">
          <h4 className="import-section-title">{t('contacts.import.rejectedTitle')}</h4>
          {progress.errors === null ? (
            <Spinner size={20} />
          ) : errors.length === 0 ? (
            <p className="crud-muted" data-testid="import-no-errors">
              {t('contacts.import.noRejected')}
            </p>
          ) : (
            <>
              <div className="import-errors-scroll">
                <HTMLTable className="crud-table import-errors-table" compact striped data-testid="import-errors">
                  <thead>
                    <tr>
                      <th className="crud-col-narrow">{t('contacts.import.line')}</th>
                      <th>{t('contacts.import.reason')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {errors.slice(0, shownErrors).map((error, index) => (
                      <tr key={`${error.line}-${index}`} data-testid="import-error-row">
                        <td className="crud-col-narrow" data-testid="import-error-line">
                          {error.line}
                        </td>
                        <td data-testid="import-error-reason">{error.reason}</td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              </div>
              {errors.length > shownErrors ? (
                <Button
                  variant="minimal"
                  text={t('contacts.import.showMoreErrors', { count: Math.min(ERROR_ROWS_STEP, errors.length - shownErrors) })}
                  onClick={() => setShownErrors((n) => n + ERROR_ROWS_STEP)}
                />
              ) : null}
            </>
          )}
        </section>
      ) : (
        <p className="crud-muted">{t('contacts.import.backgroundNote')}</p>
      )}
    </div>
  );
}

/** The tenant's last imports (GET /contacts/upload): their reports stay reachable after a reload. */
function RecentImports({ onOpen }: { onOpen(importId: string): void }) {
  const { t } = useTranslation();
  const statusText = useStatusText();
  const dateTime = useDateTime();
  const list = useListContactImportsQuery();
  const imports = list.data ?? [];
  if (list.isLoading) return <Spinner size={20} />;
  if (imports.length === 0) return <p className="crud-muted">{t('contacts.import.noRecent')}</p>;
  return (
    <div className="import-recent-scroll">
      <HTMLTable className="crud-table import-recent" compact striped interactive data-testid="import-recent">
        <thead>
          <tr>
            <th>{t('contacts.import.when')}</th>
            <th>{t('contacts.import.file')}</th>
            <th>{t('contacts.import.statusTitle')}</th>
            <th className="crud-col-narrow">{t('contacts.import.counts.created')}</th>
            <th className="crud-col-narrow">{t('contacts.import.counts.rejected')}</th>
            <th className="crud-col-actions" />
          </tr>
        </thead>
        <tbody>
          {imports.map((item) => (
            <tr key={item.id} data-testid="import-recent-row">
              <td className="crud-col-narrow">{dateTime(item.createdAt)}</td>
              <td className="import-recent-file">{item.fileName}</td>
              <td>
                <Tag minimal intent={statusIntent(item.status)}>
                  {statusText(item.status)}
                </Tag>
              </td>
              <td className="crud-col-narrow">{item.created}</td>
              <td className="crud-col-narrow">{item.rejected}</td>
              <td className="crud-col-actions">
                <Button
                  size="small"
                  variant="minimal"
                  icon="document-open"
                  text={t('contacts.import.openReport')}
                  onClick={() => onOpen(item.id)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

/**
 * Import contacts from a .csv or .xlsx file (spec sections 2 and 5): the file (chosen or dropped),
 * the date order of its birthdays, the template to start from; then the live progress and the
 * report, and the recent imports.
 */
export function ContactImportDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [dateFormat, setDateFormat] = useState<ContactImportDateFormat>('dd/MM/yyyy');
  const [importId, setImportId] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const [upload, uploading] = useUploadContactImportMutation();
  const [downloadTemplate, templateDownload] = useDownloadImportTemplateMutation();

  const choose = (chosen: File | undefined | null) => {
    if (!chosen) return;
    // The server's limits (docs/api.md), checked first so a wrong file is not sent at all.
    if (!hasImportExtension(chosen.name) || chosen.size > CONTACT_IMPORT_MAX_BYTES) {
      setFile(null);
      setFileProblem(t('errors.ERR_UNSUPPORTED_FILE_TYPE'));
      return;
    }
    setFileProblem(null);
    setFile(chosen);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const start = async () => {
    if (!file) return;
    try {
      const accepted = await upload({ file, dateFormat }).unwrap();
      setImportId(accepted.importId);
    } catch {
      // The base query toasts the refusal (type, size, permission); the file stays chosen.
    }
  };

  const getTemplate = (format: ContactFileFormat) => void downloadTemplate(format);

  const restart = () => {
    setImportId(null);
    setFile(null);
    if (input.current) input.current.value = '';
  };

  return (
    <Dialog
      isOpen
      title={t('contacts.import.title')}
      icon="import"
      onClose={onClose}
      className="crud-dialog crud-dialog-wide contact-import-dialog"
    >
      <DialogBody>
        <div data-testid="contact-import-dialog">
          {importId ? (
            <ImportProgressView key={importId} importId={importId} />
          ) : (
            <>
              <Callout icon="info-sign" className="import-help">
                <p>{t('contacts.import.help', { columns: CONTACT_TEMPLATE_COLUMNS.slice(2).join(', ') })}</p>
                <div className="import-template-links">
                  <span>{t('contacts.import.template')}</span>
                  <Button
                    size="small"
                    icon="download"
                    text="CSV"
                    loading={templateDownload.isLoading && templateDownload.originalArgs === 'csv'}
                    onClick={() => getTemplate('csv')}
                    data-testid="import-template-csv"
                  />
                  <Button
                    size="small"
                    icon="download"
                    text="XLSX"
                    loading={templateDownload.isLoading && templateDownload.originalArgs === 'xlsx'}
                    onClick={() => getTemplate('xlsx')}
                    data-testid="import-template-xlsx"
                  />
                </div>
              </Callout>
              <div
                className={`import-drop-zone${dragging ? ' is-dragging' : ''}${file ? ' has-file' : ''}`}
                onDragOver={(event) => {
                  event.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
                data-testid="import-drop-zone"
              >
                <input
                  ref={input}
                  type="file"
                  accept={CONTACT_IMPORT_EXTENSIONS.join(',')}
                  className="visually-hidden"
                  id="contact-import-file"
                  onChange={(event) => choose(event.currentTarget.files?.[0])}
                  data-testid="import-file-input"
                />
                {file ? (
                  <p className="import-chosen-file" data-testid="import-chosen-file">
                    <strong>{file.name}</strong>{' '}
                    <span className="crud-muted">({Math.max(1, Math.round(file.size / 1024))} KB)</span>
                  </p>
                ) : (
                  <p>{t('contacts.import.dropHere')}</p>
                )}
                <Button
                  icon="folder-open"
                  text={file ? t('contacts.import.chooseOther') : t('contacts.import.choose')}
                  onClick={() => input.current?.click()}
                />
              </div>
              {fileProblem ? (
                <Callout intent="danger" icon="error" className="import-file-problem" data-testid="import-file-problem">
                  {fileProblem}
                </Callout>
              ) : null}
              <FormGroup
                label={t('contacts.import.dateFormat')}
                labelFor="contact-import-date-format"
                helperText={t('contacts.import.dateFormatHelp')}
              >
                <HTMLSelect
                  id="contact-import-date-format"
                  value={dateFormat}
                  onChange={(event) => setDateFormat(event.currentTarget.value as ContactImportDateFormat)}
                  data-testid="import-date-format"
                >
                  {CONTACT_IMPORT_DATE_FORMATS.map((format) => (
                    <option key={format} value={format}>
                      {format === 'dd/MM/yyyy' ? t('contacts.import.dayFirst') : t('contacts.import.monthFirst')}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
              <h4 className="import-section-title">{t('contacts.import.recentTitle')}</h4>
              <RecentImports onOpen={setImportId} />
            </>
          )}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          importId ? (
            <>
              <Button icon="undo" text={t('contacts.import.another')} onClick={restart} data-testid="import-another" />
              <Button intent="primary" text={t('contacts.import.close')} onClick={onClose} data-testid="import-close" />
            </>
          ) : (
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <Button
                intent="primary"
                icon="upload"
                text={t('contacts.import.start')}
                disabled={!file}
                loading={uploading.isLoading}
                onClick={() => void start()}
                data-testid="import-start"
              />
            </>
          )
        }
      />
    </Dialog>
  );
}
