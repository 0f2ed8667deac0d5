import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { REDIRECT_AFTER_PASSWORD_RECOVERY_MS } from '@shared/limits';
import { passwordPolicyFailures } from '@shared/validation/password-policy';
import { useResetPasswordMutation } from '../../api/auth.api';
import { showToast } from '../../app/feedback/toaster';
import { AuthCard } from './auth-card';

/** /reset/{token}: choose a new password from the e-mailed link (spec sections 2, 5 and 8). */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirmation) {
      setError(t('auth.reset.mismatch'));
      return;
    }
    const failures = passwordPolicyFailures(password);
    if (failures.length > 0) {
      setError(t('validation.passwordPolicy'));
      return;
    }
    setError(null);
    const result = await resetPassword({ token, password });
    if ('error' in result && result.error) {
      setError(t('auth.reset.failed'));
      return;
    }
    setDone(true);
    showToast(t('auth.reset.success'), 'success');
    timer.current = setTimeout(() => navigate('/login', { replace: true }), REDIRECT_AFTER_PASSWORD_RECOVERY_MS);
  };

  return (
    <AuthCard testId="reset-page" subtitle={t('auth.reset.title')}>
      {done ? (
        <Callout intent="success" icon="tick" role="status">
          {t('auth.reset.success')}
        </Callout>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <FormGroup label={t('auth.reset.newPassword')} labelFor="reset-password" helperText={t('validation.passwordPolicy')}>
            <InputGroup
              id="reset-password"
              type="password"
              autoComplete="new-password"
              leftIcon="lock"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              autoFocus
            />
          </FormGroup>
          <FormGroup label={t('auth.reset.confirmPassword')} labelFor="reset-confirmation">
            <InputGroup
              id="reset-confirmation"
              type="password"
              autoComplete="new-password"
              leftIcon="lock"
              value={confirmation}
              onChange={(event) => setConfirmation(event.currentTarget.value)}
            />
          </FormGroup>
          {error ? (
            <Callout intent="danger" icon="error" role="alert" className="auth-error" data-testid="reset-error">
              {error}
            </Callout>
          ) : null}
          <Button type="submit" intent="primary" fill size="large" loading={isLoading} text={t('auth.reset.submit')} />
        </form>
      )}
      <div className="auth-links">
        <Link to="/login">{t('auth.backToLogin')}</Link>
      </div>
    </AuthCard>
  );
}
