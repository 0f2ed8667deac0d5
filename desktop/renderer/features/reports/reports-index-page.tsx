import { Card, H3, H5, Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { REPORT_ICONS, REPORT_ORDER } from './report-catalog';
import '../../app/crud/crud.css';
import './reports.css';

/** `/relatorios`: the seven reports, each with what it answers, leading to its screen. */
export function ReportsIndexPage() {
  const { t } = useTranslation();
  return (
    <div className="page crud-page reports-index" data-testid="page-relatorios">
      <header className="crud-page-header">
        <div>
          <H3 className="crud-page-title">{t('routes.relatorios')}</H3>
          <p className="crud-page-description">{t('reports.description')}</p>
        </div>
      </header>
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
