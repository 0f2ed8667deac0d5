import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { REDIRECT_AFTER_PASSWORD_RECOVERY_MS } from '@shared/limits';
import { isValidEmail } from '@shared/validation/contact-fields';
import { useRequestPasswordResetMutation } from '../../api/auth.api';
import { showToast } from '../../app/feedback/toaster';

/**
 * Password recovery (spec section 8): the server answers 200 whether or not the address exists,
 * so the message never reveals which e-mails have accounts. After success the user is taken
 * back to login 3 s later.
 */
export function PasswordRecoveryDialog({
  isOpen,
  initialEmail,
  onClose,
}: {
  isOpen: boolean;
  initialEmail: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (isOpen) {
      setEmail(initialEmail);
      setError(null);
      setSent(false);
    }
  }, [isOpen, initialEmail]);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = email.trim();
    if (!isValidEmail(trimmed)) {
      setError(t('validation.invalidEmail'));
      return;
    }
    setError(null);
    const result = await requestReset({ email: trimmed });
    if ('error' in result && result.error) {
      setError(t('auth.recovery.failed'));
      showToast(t('auth.recovery.failed'), 'danger');
      return;
    }
    setSent(true);
    showToast(t('auth.recovery.sent'), 'success');
    timer.current = setTimeout(() => {
      onClose();
      navigate('/login', { replace: true });
    }, REDIRECT_AFTER_PASSWORD_RECOVERY_MS);
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('auth.recovery.title')} icon="key">
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="password-recovery">
        <DialogBody>
          {sent ? (
            <Callout intent="success" icon="envelope" role="status">
              {t('auth.recovery.sent')} {t('auth.recovery.redirecting')}
            </Callout>
          ) : (
            <>
              <p>{t('auth.recovery.instructions')}</p>
              <FormGroup
                label={t('auth.email')}
                labelFor="recovery-email"
                intent={error ? 'danger' : 'none'}
                helperText={error ?? undefined}
              >
                <InputGroup
                  id="recovery-email"
                  type="email"
                  leftIcon="envelope"
                  value={email}
                  onChange={(event) => setEmail(event.currentTarget.value)}
                  autoFocus
                />
              </FormGroup>
            </>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <Button type="submit" intent="primary" text={t('auth.recovery.submit')} loading={isLoading} disabled={sent} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
