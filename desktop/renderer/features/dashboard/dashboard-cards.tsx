import { Card, Icon, ProgressBar, type IconName } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DurationStats, TicketsTimesRow } from '@shared/schemas/statistics';
import { formatCount, formatDecimal, formatDuration, ratingBars } from './dashboard-format';

function StatCard({ name, icon, title, children }: { name: string; icon: IconName; title: string; children: ReactNode }) {
  return (
    <Card className="dashboard-card" data-testid={`card-${name}`}>
      <div className="dashboard-card-head">
        <Icon icon={icon} className="dashboard-card-icon" />
        <h3 className="dashboard-card-title">{title}</h3>
      </div>
      {children}
    </Card>
  );
}

function Figure({ value, testId, caption }: { value: string; testId: string; caption?: string }) {
  return (
    <div className="dashboard-figure">
      <span className="dashboard-figure-value" data-testid={testId}>
        {value}
      </span>
      {caption ? <span className="dashboard-figure-caption">{caption}</span> : null}
    </div>
  );
}

function DurationCard({
  name,
  icon,
  title,
  stats,
}: {
  name: string;
  icon: IconName;
  title: string;
  stats: DurationStats | undefined;
}) {
  const { t } = useTranslation();
  return (
    <StatCard name={name} icon={icon} title={title}>
      <div className="dashboard-figures">
        <Figure value={formatDuration(stats?.median)} testId={`${name}-median`} caption={t('dashboard.median')} />
        <Figure value={formatDuration(stats?.p90)} testId={`${name}-p90`} caption={t('dashboard.p90')} />
      </div>
      <p className="dashboard-card-note">{t('dashboard.samples', { count: stats?.samples ?? 0 })}</p>
    </StatCard>
  );
}

/**
 * The period's figures: tickets open, pending and resolved, new contacts, first response and
 * resolution times (median and p90), ratings (average and distribution), messages in and out.
 */
export function DashboardCards({ row }: { row: TicketsTimesRow | null | undefined }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const count = (value: number | undefined) => formatCount(value, locale);
  const bars = ratingBars(row?.ratings.distribution);
  return (
    <div className="dashboard-cards">
      <StatCard name="tickets" icon="inbox" title={t('dashboard.cards.tickets')}>
        <div className="dashboard-figures">
          <Figure value={count(row?.open)} testId="stat-open" caption={t('dashboard.open')} />
          <Figure value={count(row?.pending)} testId="stat-pending" caption={t('dashboard.pending')} />
          <Figure value={count(row?.resolved)} testId="stat-resolved" caption={t('dashboard.resolved')} />
        </div>
      </StatCard>
      <StatCard name="contacts" icon="new-person" title={t('dashboard.cards.newContacts')}>
        <Figure value={count(row?.new_contacts)} testId="stat-new-contacts" />
      </StatCard>
      <StatCard name="messages" icon="chat" title={t('dashboard.cards.messages')}>
        <div className="dashboard-figures">
          <Figure value={count(row?.messagesIn)} testId="stat-messages-in" caption={t('dashboard.messagesIn')} />
          <Figure value={count(row?.messagesOut)} testId="stat-messages-out" caption={t('dashboard.messagesOut')} />
        </div>
      </StatCard>
      <DurationCard name="first-response" icon="time" title={t('dashboard.cards.firstResponse')} stats={row?.firstResponse} />
      <DurationCard name="resolution" icon="tick-circle" title={t('dashboard.cards.resolution')} stats={row?.resolution} />
      <StatCard name="ratings" icon="star" title={t('dashboard.cards.ratings')}>
        <div className="dashboard-figures">
          <Figure
            value={formatDecimal(row?.ratings.average, locale)}
            testId="stat-rating-average"
            caption={t('dashboard.ratingAverage')}
          />
          <Figure value={count(row?.ratings.count)} testId="stat-rating-count" caption={t('dashboard.ratingCount')} />
        </div>
        <ul className="dashboard-rating-bars" data-testid="rating-distribution">
          {bars.map((bar) => (
            <li key={bar.score} data-testid={`rating-${bar.score}`}>
              <span className="dashboard-rating-label">
                {bar.score} · {t(bar.labelKey)}
              </span>
              <ProgressBar
                value={bar.percent / 100}
                stripes={false}
                animate={false}
                intent={bar.score >= 3 ? 'success' : bar.score >= 2 ? 'warning' : 'danger'}
              />
              <span className="dashboard-rating-count">{count(bar.count)}</span>
            </li>
          ))}
        </ul>
      </StatCard>
    </div>
  );
}
