import { Card, H5, Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { REPORT_ICONS, REPORT_ORDER } from './report-catalog';
import '../../app/crud/crud.css';
import './reports.css';
import { PageHeader } from '../../app/layout/page-header';

/** `/relatorios`: the seven reports, each with what it answers, leading to its screen. */
export function ReportsIndexPage() {
  const { t } = useTranslation();
  return (
    <div className="page crud-page reports-index" data-testid="page-relatorios">
      <PageHeader title={t('routes.relatorios')} description={t('reports.description')} />
      <ul className="reports-grid" aria-label={t('routes.relatorios')}>
        {REPORT_ORDER.map((id) => (
          <li key={id}>
            <Link to={`/relatorios/${id}`} className="reports-card-link" data-testid={`report-link-${id}`}>
              <Card interactive className="reports-card">
                <Icon icon={REPORT_ICONS[id]} size={20} className="reports-card-icon" />
                <div>
                  <H5 className="reports-card-title">{t(`reports.catalog.${id}.title`)}</H5>
                  <p className="reports-card-text">{t(`reports.catalog.${id}.description`)}</p>
                </div>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
