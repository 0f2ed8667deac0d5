import { Button } from '@blueprintjs/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatFlowExport } from '@shared/schemas/chatflow';
import { FLOW_FILE_MAX_BYTES, readFlowFile, type FlowFileIssue } from './flow-file';

/**
 * "Importar JSON": a file picker whose file is read with the export schema; a valid file goes to
 * `onFile`, an invalid one to `onIssues` (each problem with its path), nothing is sent.
 */
export function FlowImportButton({
  onFile,
  onIssues,
  loading,
  testId,
}: {
  onFile(file: ChatFlowExport): void;
  onIssues(issues: FlowFileIssue[]): void;
  loading?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const read = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > FLOW_FILE_MAX_BYTES) return onIssues([{ path: 'arquivo', message: t('chatFlows.fileTooLarge') }]);
    const reading = readFlowFile(await file.text());
    if (reading.ok) onFile(reading.file);
    else onIssues(reading.issues);
  };
  return (
    <>
      <Button
        icon="import"
        text={t('chatFlows.import')}
        loading={loading}
        onClick={() => input.current?.click()}
        data-testid={testId}
      />
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid={`${testId}-file`}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          // Cleared so choosing the same file again is a new change.
          event.currentTarget.value = '';
          void read(file);
        }}
      />
    </>
  );
}
