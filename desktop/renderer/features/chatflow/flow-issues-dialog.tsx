import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { FlowFileIssue } from './flow-file';

/**
 * Why a file (or a flow) was refused: one line per problem with where it is, as the schema or the
 * server named it ("flow.steps.1.name: nome da etapa: obrigatório").
 */
export function FlowIssuesDialog({ title, issues, onClose }: { title: string; issues: FlowFileIssue[] | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog isOpen={issues !== null} title={title} icon="error" onClose={onClose}>
      <DialogBody>
        <Callout intent="danger" data-testid="flow-issues">
          <ul className="chatflow-issues">
            {(issues ?? []).map((issue, index) => (
              <li key={index} data-testid="flow-issue">
                <code>{issue.path}</code>: {issue.message}
              </li>
            ))}
          </ul>
        </Callout>
      </DialogBody>
      <DialogFooter actions={<Button text={t('chatFlows.close')} onClick={onClose} data-testid="flow-issues-close" />} />
    </Dialog>
  );
}
