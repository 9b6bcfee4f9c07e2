import { Link } from 'react-router-dom';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ChevronLeft, ChevronRight, Download, PackagePlus, Search } from 'lucide-react';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Spinner } from '@/components/ui/Spinner';
import { PORTAL_BOOK_PATH, portalShipmentPath } from '@/config/routes';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useCurrentLanguage, useMessages } from '@/lib/i18n';
import { serverMessage } from '@/lib/rpc-errors';
import { formatDateTime } from '@/utils/format';
import { STATUS_OPTIONS, statusKey } from '@/utils/shipment';
import { usePortalList } from '../hooks/use-portal-list';
import { isFiltered, portalExportHref } from '../utils/list-params';

/** /portal: the customer's shipments, searched and filtered, a page at a time; each opens. */
export function ShipmentsList() {
  const t = useMessages('portal');
  const tTrack = useMessages('track');
  const language = useCurrentLanguage();
  useDocumentTitle(t('portal.list.title'));
  const { params, list, backwards, search, setSearch, setFilter, hasNext, next, previous } = usePortalList();
  const shipments = list.data?.shipments ?? [];
  const loadedEmpty = list.data !== undefined && shipments.length === 0;

  return (
    <div className="portal-page">
      <div className="portal-page-head">
        <h1>{t('portal.list.title')}</h1>
        <div className="portal-actions">
          {/* A plain link: the browser downloads it with the session cookie, every page of the filter. */}
          <a href={portalExportHref(params)} download className="btn btn-outline">
            <Download aria-hidden="true" size={18} />
            {t('portal.list.export')}
          </a>
          <Link to={PORTAL_BOOK_PATH} className="btn btn-primary">
            <PackagePlus aria-hidden="true" size={18} />
            {t('portal.nav.book')}
          </Link>
        </div>
      </div>

      <form className="card portal-filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <Field id="portal-search" label={t('portal.list.search')} className="portal-search">
          <div className="portal-search-box">
            <Search aria-hidden="true" size={18} />
            <input
              id="portal-search"
              className="input"
              type="search"
              value={search}
              placeholder={t('portal.list.search_hint')}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </Field>
        <Field id="portal-status" label={t('portal.list.status')}>
          <select
            id="portal-status"
            className="select"
            value={params.status}
            onChange={(event) => setFilter({ status: event.target.value })}
          >
            <option value="all">{t('portal.list.all_statuses')}</option>
            {STATUS_OPTIONS.map((option) => (
              <option key={option.key} value={option.key}>
                {tTrack(option.labelId)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="portal-from" label={t('portal.list.from')}>
          <input
            id="portal-from"
            className="input"
            type="date"
            value={params.from}
            onChange={(event) => setFilter({ from: event.target.value })}
          />
        </Field>
        <Field id="portal-to" label={t('portal.list.to')} error={backwards ? t('portal.list.backwards_range') : undefined}>
          <input
            className="input"
            type="date"
            value={params.to}
            {...fieldInputProps('portal-to', backwards ? t('portal.list.backwards_range') : undefined)}
            onChange={(event) => setFilter({ to: event.target.value })}
          />
        </Field>
      </form>

      {list.error && <ErrorAlert message={serverMessage(list.error, t('portal.list.load_failed'))} />}
      {list.isPending && !backwards && <Spinner size="md" label={t('portal.list.loading')} />}

      {loadedEmpty &&
        (isFiltered(params) ? (
          <p className="card portal-empty" data-testid="portal-empty">
            {t('portal.list.no_match')}
          </p>
        ) : (
          <div className="card portal-empty" data-testid="portal-empty">
            <p>{t('portal.list.empty')}</p>
            <Link to={PORTAL_BOOK_PATH} className="btn btn-primary">
              <PackagePlus aria-hidden="true" size={18} />
              {t('portal.list.book_first')}
            </Link>
          </div>
        ))}

      {shipments.length > 0 && (
        <ul className="portal-rows" aria-busy={list.isFetching} data-testid="portal-shipments">
          {shipments.map((shipment) => (
            <li key={shipment.id}>
              <Link to={portalShipmentPath(shipment.id)} className="portal-row">
                <span className="portal-row-number mono">{shipment.trackingNumber}</span>
                <StatusBadge statusKey={statusKey(shipment.status)} />
                <span className="portal-row-route">
                  <bdi>{shipment.origin}</bdi> → <bdi>{shipment.destination}</bdi>
                </span>
                <span className="portal-row-receiver">
                  <bdi>{shipment.receiver?.name}</bdi>
                </span>
                <span className="portal-row-date muted">
                  {formatDateTime(shipment.createTime ? timestampDate(shipment.createTime) : undefined, language)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      {(params.page > 1 || hasNext) && (
        <nav className="portal-pager" aria-label={t('portal.list.pages')}>
          <button type="button" className="btn btn-outline btn-sm" onClick={previous} disabled={params.page <= 1}>
            <ChevronLeft aria-hidden="true" size={16} className="flip-rtl" />
            {t('portal.list.previous')}
          </button>
          <span className="muted">{t('portal.list.page', { page: params.page })}</span>
          <button type="button" className="btn btn-outline btn-sm" onClick={next} disabled={!hasNext}>
            {t('portal.list.next')}
            <ChevronRight aria-hidden="true" size={16} className="flip-rtl" />
          </button>
        </nav>
      )}
    </div>
  );
}
