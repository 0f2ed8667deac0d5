import { Button, Callout, Dialog, DialogBody, DialogFooter, type IconName } from '@blueprintjs/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FormDialogProps {
  isOpen: boolean;
  title: string;
  icon?: IconName;
  /** The save is running: the button spins and the dialog stays open. */
  saving: boolean;
  /** Why the last save failed (the server's text, or the local check's). */
  error?: string | null;
  onSubmit(): void;
  onClose(): void;
  children: ReactNode;
  wide?: boolean;
  testId: string;
}

/** A create/edit form in a dialog: Enter or the save button submits, Esc or cancel closes. */
export function FormDialog({ isOpen, title, icon, saving, error, onSubmit, onClose, children, wide, testId }: FormDialogProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!saving) onSubmit();
  };
  return (
    <Dialog
      isOpen={isOpen}
      title={title}
      icon={icon}
      onClose={saving ? undefined : onClose}
      className={wide ? 'crud-dialog crud-dialog-wide' : 'crud-dialog'}
    >
      {/* The dialog renders in a portal and does not pass data attributes on: the form carries the id. */}
      <form onSubmit={submit} noValidate data-testid={testId}>
        <DialogBody>
          {children}
          {error ? (
            <Callout intent="danger" icon="error" role="alert" className="crud-form-error" data-testid="form-error">
              {error}
            </Callout>
          ) : null}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} disabled={saving} />
              <Button
                type="submit"
                intent="primary"
                icon="floppy-disk"
                text={t('crud.save')}
                loading={saving}
                data-testid="form-save"
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
