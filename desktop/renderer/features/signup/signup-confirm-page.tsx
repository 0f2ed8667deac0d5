import { Button, Callout, Spinner } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useConfirmSignupMutation } from '../../api/signup.api';
import { describeError } from '../../api/error-mapper';
import { AuthCard } from '../auth/auth-card';

/**
 * /signup/confirm/:token: the link of the sign-up e-mail. The page (not the link itself) sends
 * the token, so a mail scanner that fetches the link does not spend it; then it offers login.
 */
export function SignupConfirmPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const [confirm, result] = useConfirmSignupMutation();
  const sent = useRef(false);

  useEffect(() => {
    // Once per page, also under React's double effects in development.
    if (sent.current) return;
    sent.current = true;
    void confirm({ token });
  }, [confirm, token]);

  return (
    <AuthCard testId="signup-confirm-page" subtitle={t('signup.confirmTitle')}>
      {result.isSuccess ? (
        <Callout intent="success" icon="tick" role="status" data-testid="signup-confirmed">
          {t('signup.confirmed', { email: result.data.email })}
        </Callout>
      ) : result.isError ? (
        <Callout intent="danger" icon="error" role="alert" data-testid="signup-confirm-failed">
          {describeError(result.error, (key, options) => t(key, options))}
        </Callout>
      ) : (
        <Spinner size={32} />
      )}
      <div className="auth-links">
        <Button
          intent={result.isSuccess ? 'primary' : 'none'}
          text={t('signup.goToLogin')}
          onClick={() => navigate('/login')}
          data-testid="signup-go-login"
        />
      </div>
    </AuthCard>
  );
}
