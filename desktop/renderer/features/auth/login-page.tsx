import { Button, Callout, FormGroup, InputGroup, Tooltip } from '@blueprintjs/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { isValidEmail } from '@shared/validation/contact-fields';
import { useLoginMutation } from '../../api/auth.api';
import { describeError } from '../../api/error-mapper';
import { showToast } from '../../app/feedback/toaster';
import { landingPathFor } from '../../app/routing/guards';
import { startSession } from '../../app/session/session-controller';
import { PasswordRecoveryDialog } from './password-recovery-dialog';
import { SliderCaptcha } from './slider-captcha';
import { useCaptchaAnswer } from './use-captcha-answer';
import { AuthCard } from './auth-card';

/** /login (spec section 2 and 5): e-mail and password, slider captcha, password recovery. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [captchaDone, setCaptchaDone] = useState(false);
  const [captchaResetKey, setCaptchaResetKey] = useState(0);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [recoveryOpen, setRecoveryOpen] = useState(false);
  const [login, { isLoading }] = useLoginMutation();
  const captcha = useCaptchaAnswer();
  const [solvingCaptcha, setSolvingCaptcha] = useState(false);

  // The completed gesture starts the server challenge's proof of work in the background.
  useEffect(() => {
    if (captchaDone) captcha.prepare();
    else captcha.discard();
  }, [captchaDone, captcha.prepare, captcha.discard]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const trimmedEmail = email.trim();
    if (!isValidEmail(trimmedEmail)) {
      setEmailError(t('validation.invalidEmail'));
      return;
    }
    setEmailError(null);
    if (!password) {
      setFormError(t('auth.passwordRequired'));
      return;
    }
    if (!captchaDone) {
      setFormError(t('auth.captcha.required'));
      return;
    }
    let answer;
    setSolvingCaptcha(true);
    try {
      answer = await captcha.take();
    } catch (error) {
      setFormError(describeError(error, (key, options) => t(key, options)));
      setCaptchaResetKey((key) => key + 1);
      return;
    } finally {
      setSolvingCaptcha(false);
    }
    const result = await login({ email: trimmedEmail, password, ...answer });
    if ('error' in result && result.error) {
      setFormError(describeError(result.error, (key, options) => t(key, options)));
      // A new attempt needs a new gesture.
      setCaptchaResetKey((key) => key + 1);
      return;
    }
    const response = result.data;
    startSession(response);
    showToast(t('auth.loginSuccess'), 'success');
    navigate(landingPathFor(response.profile), { replace: true });
  };

  return (
    <>
      <AuthCard testId="login-page" subtitle={t('auth.loginTitle')}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <FormGroup
            label={t('auth.email')}
            labelFor="login-email"
            intent={emailError ? 'danger' : 'none'}
            helperText={emailError ?? undefined}
          >
            <InputGroup
              id="login-email"
              type="email"
              autoComplete="username"
              leftIcon="envelope"
              value={email}
              intent={emailError ? 'danger' : 'none'}
              onChange={(event) => setEmail(event.currentTarget.value)}
              autoFocus
            />
          </FormGroup>
          <FormGroup label={t('auth.password')} labelFor="login-password">
            <InputGroup
              id="login-password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              leftIcon="lock"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              rightElement={
                <Tooltip content={showPassword ? t('auth.hidePassword') : t('auth.showPassword')}>
                  <Button
                    variant="minimal"
                    icon={showPassword ? 'eye-off' : 'eye-open'}
                    aria-label={showPassword ? t('auth.hidePassword') : t('auth.showPassword')}
                    onClick={() => setShowPassword((shown) => !shown)}
                  />
                </Tooltip>
              }
            />
          </FormGroup>
          <FormGroup label={t('auth.captcha.label')}>
            <SliderCaptcha verified={captchaDone} onVerifiedChange={setCaptchaDone} resetKey={captchaResetKey} />
          </FormGroup>
          {formError ? (
            <Callout intent="danger" icon="error" role="alert" className="auth-error" data-testid="login-error">
              {formError}
            </Callout>
          ) : null}
          <Button
            type="submit"
            intent="primary"
            fill
            size="large"
            loading={isLoading || solvingCaptcha}
            text={t('auth.signIn')}
            data-testid="login-submit"
          />
        </form>
        <div className="auth-links">
          <Button
            variant="minimal"
            size="small"
            text={t('auth.forgotPassword')}
            onClick={() => setRecoveryOpen(true)}
            data-testid="forgot-password"
          />
          <Link to="/signup">{t('auth.createAccount')}</Link>
        </div>
      </AuthCard>
      <PasswordRecoveryDialog isOpen={recoveryOpen} initialEmail={email.trim()} onClose={() => setRecoveryOpen(false)} />
    </>
  );
}
