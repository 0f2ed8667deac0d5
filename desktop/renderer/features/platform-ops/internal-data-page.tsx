import { Card, H5, HTMLTable, Tag } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetInternalDataQuery } from '../../api/platform-ops.api';
import { CrudPage } from '../../app/crud/crud-page';
import { formatDuration } from '../../app/table/cell-format';
import { formatBytes } from './platform-format';
import './platform-ops.css';

function Facts({ title, rows, testId }: { title: string; rows: [string, ReactNode][]; testId: string }) {
  return (
    <Card className="platform-facts" data-testid={testId}>
      <H5>{title}</H5>
      <HTMLTable compact className="crud-table">
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th>{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}

/** /tenantsPk: versions and environment of the running backend; secrets only as "set". */
export function InternalDataPage() {
  const { t, i18n } = useTranslation();
  const query = useGetInternalDataQuery();
  const data = query.data;
  const lang = i18n.language;
  const k = (key: string, options?: Record<string, unknown>) => t(`platformOps.internalData.${key}`, options);
  return (
    <CrudPage
      routeId="tenantsPk"
      description={k('description')}
      list={query}
      isEmpty={!data}
      empty={{ icon: 'database', title: t('crud.loadFailed') }}
    >
      {data ? (
        <div className="platform-grid">
          <Facts
            title={k('app')}
            testId="internal-data-app"
            rows={[
              [data.app.name, <code key="v">{data.app.version}</code>],
              [k('node'), data.runtime.node],
              [k('platform'), `${data.runtime.platform}/${data.runtime.arch}`],
              [k('uptime'), formatDuration(data.runtime.uptimeSeconds)],
              [k('pid'), data.runtime.pid],
            ]}
          />
          <Facts
            title={k('memory')}
            testId="internal-data-memory"
            rows={[
              [k('rss'), formatBytes(data.memory.rssBytes, lang)],
              [k('heap'), `${formatBytes(data.memory.heapUsedBytes, lang)} / ${formatBytes(data.memory.heapTotalBytes, lang)}`],
              [
                k('systemMemory'),
                `${formatBytes(data.memory.systemFreeBytes, lang)} / ${formatBytes(data.memory.systemTotalBytes, lang)}`,
              ],
            ]}
          />
          <Facts
            title={k('database')}
            testId="internal-data-database"
            rows={[
              [k('database'), `${data.database.kind} ${data.database.version}`],
              [k('redis'), data.redis.enabled ? k('enabled') : k('disabled')],
              [k('queueDriver'), t(`platformOps.jobQueues.driver.${data.queueDriver}`)],
              [
                k('updateKey'),
                data.updatePublicKey.configured ? (
                  <code key="f">{k('keyConfigured', { fingerprint: data.updatePublicKey.fingerprint })}</code>
                ) : (
                  <Tag key="m" intent="warning" minimal>
                    {k('keyMissing')}
                  </Tag>
                ),
              ],
            ]}
          />
          <Card className="platform-facts platform-facts-wide" data-testid="internal-data-dependencies">
            <H5>{k('dependencies')}</H5>
            <HTMLTable compact striped className="crud-table">
              <thead>
                <tr>
                  <th>{k('dependency')}</th>
                  <th>{k('declared')}</th>
                  <th>{k('installed')}</th>
                </tr>
              </thead>
              <tbody>
                {data.dependencies.map((d) => (
                  <tr key={d.name}>
                    <td>
                      <code>{d.name}</code>
                    </td>
                    <td>{d.declared}</td>
                    <td>{d.installed ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </Card>
          <Card className="platform-facts platform-facts-wide" data-testid="internal-data-environment">
            <H5>{k('environment')}</H5>
            <HTMLTable compact striped className="crud-table">
              <thead>
                <tr>
                  <th>{k('variable')}</th>
                  <th>{k('value')}</th>
                </tr>
              </thead>
              <tbody>
                {data.environment.map((v) => (
                  <tr key={v.name} data-testid="internal-data-variable">
                    <td>
                      <code>{v.name}</code>
                    </td>
                    <td>
                      {!v.set ? (
                        <span className="crud-muted">{k('notSet')}</span>
                      ) : v.secret ? (
                        <Tag minimal icon="lock">
                          {k('secretSet')}
                        </Tag>
                      ) : (
                        <code>{v.value}</code>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </Card>
        </div>
      ) : null}
    </CrudPage>
  );
}
