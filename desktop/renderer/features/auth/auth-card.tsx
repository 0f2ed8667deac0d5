import { Card, H2 } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { LanguageSelect } from '../preferences/language-select';
import { BrandHeading } from '../white-label/brand-heading';

/**
 * The frame of the public screens (login, reset, sign-up and its confirmation): the card with the
 * white-label brand, the language choice and the screen's subtitle.
 */
export function AuthCard({
  testId,
  subtitle,
  wide,
  children,
}: {
  testId: string;
  subtitle: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="auth-page" data-testid={testId}>
      <Card className={wide ? 'auth-card auth-card-wide' : 'auth-card'} elevation={2}>
        <div className="auth-card-header">
          <H2 className="app-brand-title">
            <BrandHeading />
          </H2>
          <LanguageSelect minimal />
        </div>
        <p className="auth-subtitle">{subtitle}</p>
        {children}
      </Card>
    </div>
  );
}
