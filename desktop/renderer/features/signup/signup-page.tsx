import { Button, Callout, Card, FormGroup, H2, InputGroup, NonIdealState, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { validateSignup, type SignupField, type SignupFailure, type SignupInput } from '@shared/schemas/signup';
import { useListPublicPlansQuery, type PublicPlan } from '../../api/plans.api';
import { LanguageSelect } from '../preferences/language-select';

const FAILURE_KEYS: Record<SignupFailure, string> = {
  required: 'validation.required',
  invalidTaxId: 'signup.invalidTaxId',
  invalidEmail: 'validation.invalidEmail',
  invalidPhone: 'signup.invalidPhone',
  weakPassword: 'validation.passwordPolicy',
};

const emptyForm: SignupInput = { name: '', taxId: '', email: '', phone: '', password: '', planId: null };

/**
 * /signup: plan choice and the company's first administrator (spec sections 2, 3 and 5).
 * The server side of self sign-up does not exist yet, so a valid form ends in a plain
 * statement that sign-up is not available, never in a pretend success.
 */
export function SignupPage() {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<SignupInput>(emptyForm);
  const [errors, setErrors] = useState<Partial<Record<SignupField, SignupFailure>>>({});
  const [notice, setNotice] = useState<{ intent: 'danger' | 'warning'; text: string } | null>(null);
  const plans = useListPublicPlansQuery();

  const set = (field: Exclude<SignupField, 'planId'>) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setForm((current) => ({ ...current, [field]: value }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateSignup(form);
    setErrors(result.errors);
    if (result.missing.length > 0) {
      setNotice({ intent: 'warning', text: t('signup.fillAllFields') });
      return;
    }
    if (!result.ok) {
      setNotice({ intent: 'warning', text: t('validation.formHasErrors') });
      return;
    }
    setNotice({ intent: 'danger', text: t('signup.notAvailable') });
  };

  const field = (
    name: Exclude<SignupField, 'planId'>,
    labelKey: string,
    props: { type?: string; autoComplete?: string; placeholder?: string } = {},
  ) => {
    const failure = errors[name];
    return (
      <FormGroup
        label={t(labelKey)}
        labelFor={`signup-${name}`}
        intent={failure ? 'danger' : 'none'}
        helperText={failure ? t(FAILURE_KEYS[failure]) : undefined}
      >
        <InputGroup
          id={`signup-${name}`}
          value={form[name]}
          onChange={set(name)}
          intent={failure ? 'danger' : 'none'}
          {...props}
        />
      </FormGroup>
    );
  };

  const money = (plan: PublicPlan) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'BRL' }).format(plan.value);

  return (
    <div className="auth-page" data-testid="signup-page">
      <Card className="auth-card auth-card-wide" elevation={2}>
        <div className="auth-card-header">
          <H2 className="app-brand-title">{t('app.name')}</H2>
          <LanguageSelect minimal />
        </div>
        <p className="auth-subtitle">{t('signup.title')}</p>
        <form onSubmit={submit} noValidate>
          <FormGroup
            label={t('signup.plan')}
            intent={errors.planId ? 'danger' : 'none'}
            helperText={errors.planId ? t('validation.required') : undefined}
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
                selectedValue={form.planId === null ? undefined : String(form.planId)}
                onChange={(event) => {
                  const planId = Number(event.currentTarget.value);
                  setForm((current) => ({ ...current, planId }));
                }}
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
          {field('name', 'signup.name', { autoComplete: 'name' })}
          {field('taxId', 'signup.taxId', { placeholder: '000.000.000-00' })}
          {field('email', 'auth.email', { type: 'email', autoComplete: 'email' })}
          {field('phone', 'signup.phone', { type: 'tel', autoComplete: 'tel', placeholder: '(11) 98765-4321' })}
          {field('password', 'auth.password', { type: 'password', autoComplete: 'new-password' })}
          {notice ? (
            <Callout
              intent={notice.intent}
              icon={notice.intent === 'danger' ? 'error' : 'warning-sign'}
              role="alert"
              className="auth-error"
              data-testid="signup-notice"
            >
              {notice.text}
            </Callout>
          ) : null}
          <Button type="submit" intent="primary" fill size="large" text={t('signup.submit')} data-testid="signup-submit" />
        </form>
        <div className="auth-links">
          <Link to="/login">{t('auth.backToLogin')}</Link>
        </div>
      </Card>
    </div>
  );
}
