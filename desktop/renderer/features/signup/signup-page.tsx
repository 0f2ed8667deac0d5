import { Button, Callout, FormGroup, InputGroup, NonIdealState, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  SIGNUP_FILL_ALL_FIELDS,
  SIGNUP_FORM_FIELDS,
  signupSchema,
  type SignupFormValues,
  type SignupRequest,
  type SignupResponse,
} from '@shared/schemas/signup';
import { useListPublicPlansQuery, type PublicPlan } from '../../api/plans.api';
import { useGetSignupStatusQuery, useSignupMutation } from '../../api/signup.api';
import { describeError } from '../../api/error-mapper';
import { SERVER_ERROR_KEY } from '../../app/forms/field-text';
import { showServerFailure } from '../../app/forms/server-errors';
import { useZodForm } from '../../app/forms/use-zod-form';
import { SliderCaptcha } from '../auth/slider-captcha';
import { useCaptchaAnswer } from '../auth/use-captcha-answer';
import { signupMessageKey } from './signup-messages';
import { AuthCard } from '../auth/auth-card';

const emptyForm: SignupFormValues = { name: '', taxId: '', email: '', phone: '', password: '', planId: null };

type TextFieldName = Exclude<(typeof SIGNUP_FORM_FIELDS)[number], 'planId'>;

/** One text field of the form, its schema message shown in the reader's language. */
function SignupTextField({
  control,
  name,
  labelKey,
  type,
  autoComplete,
  placeholder,
}: {
  control: Control<SignupFormValues, unknown, SignupRequest>;
  name: TextFieldName;
  labelKey: string;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const error = fieldState.error?.message;
  return (
    <FormGroup
      label={t(labelKey)}
      labelFor={`signup-${name}`}
      intent={error ? 'danger' : 'none'}
      helperText={error ? <span data-testid={`signup-${name}-error`}>{t(signupMessageKey(error), { defaultValue: error })}</span> : undefined}
    >
      <InputGroup
        id={`signup-${name}`}
        name={field.name}
        value={(field.value as string | null) ?? ''}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        inputRef={field.ref}
        intent={error ? 'danger' : 'none'}
        type={type}
        autoComplete={autoComplete}
        placeholder={placeholder}
      />
    </FormGroup>
  );
}

/**
 * /signup: plan choice and the company's first administrator (spec sections 2, 3 and 5). The
 * form checks the shared schema, the slider captcha is solved as on the login page, and the
 * server creates the company pending until the e-mailed link is followed.
 */
export function SignupPage() {
  const { t, i18n } = useTranslation();
  const plans = useListPublicPlansQuery();
  const status = useGetSignupStatusQuery(undefined, { refetchOnMountOrArgChange: true });
  const form = useZodForm<SignupFormValues, SignupRequest>(signupSchema, emptyForm);
  const [signup, { isLoading }] = useSignupMutation();
  const captcha = useCaptchaAnswer();
  const [captchaDone, setCaptchaDone] = useState(false);
  const [captchaResetKey, setCaptchaResetKey] = useState(0);
  const [solvingCaptcha, setSolvingCaptcha] = useState(false);
  const [done, setDone] = useState<SignupResponse | null>(null);
  const planField = useController({ control: form.control, name: 'planId' });

  useEffect(() => {
    if (captchaDone) captcha.prepare();
    else captcha.discard();
  }, [captchaDone, captcha.prepare, captcha.discard]);

  const failWith = (message: string) => form.setError(`root.${SERVER_ERROR_KEY}`, { type: 'server', message });

  const submit = form.handleSubmit(async (values) => {
    if (!captchaDone) {
      failWith(t('auth.captcha.required'));
      return;
    }
    let answer;
    setSolvingCaptcha(true);
    try {
      answer = await captcha.take();
    } catch (error) {
      failWith(describeError(error, (key, options) => t(key, options)));
      setCaptchaResetKey((key) => key + 1);
      return;
    } finally {
      setSolvingCaptcha(false);
    }
    const { captchaToken: _token, captchaSolution: _solution, ...body } = values;
    try {
      setDone(await signup({ ...body, ...answer }).unwrap());
    } catch (error) {
      showServerFailure(form.setError, error, (key, options) => t(key, options), SIGNUP_FORM_FIELDS);
      // A new attempt needs a new gesture (each captcha answer is accepted once).
      setCaptchaResetKey((key) => key + 1);
      setCaptchaDone(false);
    }
  });

  const money = (plan: PublicPlan) => new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'BRL' }).format(plan.value);

  const errors = form.formState.errors;
  const serverError = errors.root?.[SERVER_ERROR_KEY]?.message;
  const fieldMessages = SIGNUP_FORM_FIELDS.map((name) => errors[name]?.message).filter(Boolean);
  const notice = serverError
    ? serverError
    : fieldMessages.includes(SIGNUP_FILL_ALL_FIELDS)
      ? t('signup.fillAllFields')
      : fieldMessages.length > 0
        ? t('validation.formHasErrors')
        : null;
  const planError = errors.planId?.message;

  const body = done ? (
    <div data-testid="signup-done">
      <Callout intent={done.mailSent ? 'success' : 'warning'} icon={done.mailSent ? 'envelope' : 'warning-sign'} role="status">
        {done.mailSent ? t('signup.checkEmail', { email: done.email }) : t('signup.mailNotSent', { email: done.email })}
      </Callout>
    </div>
  ) : status.data?.allowSignup === false ? (
    <Callout intent="warning" icon="disable" data-testid="signup-disabled">
      {t('errors.ERR_USER_CREATION_DISABLED')}
    </Callout>
  ) : (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <FormGroup
        label={t('signup.plan')}
        intent={planError ? 'danger' : 'none'}
        helperText={planError ? t(signupMessageKey(planError), { defaultValue: planError }) : undefined}
      >
        {plans.isLoading ? (
          <Spinner size={24} />
        ) : plans.isError ? (
          <NonIdealState
            icon="warning-sign"
            description={t('signup.plansFailed')}
            action={<Button icon="refresh" text={t('common.retry')} onClick={() => void plans.refetch()} />}
          />
        ) : (plans.data ?? []).length === 0 ? (
          <Callout intent="warning">{t('signup.noPlans')}</Callout>
        ) : (
          <RadioGroup
            selectedValue={planField.field.value === null ? undefined : String(planField.field.value)}
            onChange={(event) => planField.field.onChange(Number(event.currentTarget.value))}
          >
            {(plans.data ?? []).map((plan) => (
              <Radio key={plan.id} value={String(plan.id)} data-testid={`plan-${plan.id}`}>
                <strong>{plan.name}</strong> · {money(plan)} ·{' '}
                {t('signup.planLimits', { users: plan.maxUsers, connections: plan.maxConnections })}
                {plan.trial ? ` · ${t('signup.trialDays', { count: plan.trialDays })}` : ''}
              </Radio>
            ))}
          </RadioGroup>
        )}
      </FormGroup>
      <SignupTextField control={form.control} name="name" labelKey="signup.name" autoComplete="organization" />
      <SignupTextField control={form.control} name="taxId" labelKey="signup.taxId" placeholder="000.000.000-00" />
      <SignupTextField control={form.control} name="email" labelKey="auth.email" type="email" autoComplete="email" />
      <SignupTextField control={form.control} name="phone" labelKey="signup.phone" type="tel" autoComplete="tel" placeholder="(11) 98765-4321" />
      <SignupTextField control={form.control} name="password" labelKey="auth.password" type="password" autoComplete="new-password" />
      <FormGroup label={t('auth.captcha.label')}>
        <SliderCaptcha verified={captchaDone} onVerifiedChange={setCaptchaDone} resetKey={captchaResetKey} />
      </FormGroup>
      {notice ? (
        <Callout intent="danger" icon="error" role="alert" className="auth-error" data-testid="signup-notice">
          {notice}
        </Callout>
      ) : null}
      <Button
        type="submit"
        intent="primary"
        fill
        size="large"
        loading={isLoading || solvingCaptcha}
        text={t('signup.submit')}
        data-testid="signup-submit"
      />
    </form>
  );

  return (
    <AuthCard testId="signup-page" subtitle={t('signup.title')} wide>
        {body}
        <div className="auth-links">
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </div>
    </AuthCard>
  );
}
