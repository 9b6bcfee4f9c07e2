import './labels.css';
import { AlertCircle, Printer } from 'lucide-react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ADMIN_HOME_PATH, PORTAL_HOME_PATH, labelsPath, type PrintArea, type PrintFormat } from '@/config/routes';
import { Spinner } from '@/components/ui/Spinner';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useCurrentLanguage, useMessagesIn, type Translate } from '@/lib/i18n';
import { useFitScale } from '../hooks/use-fit-scale';
import { usePrintItems } from '../hooks/use-print-items';
import { MAX_PRINT_IDS, parseFormat, parseIds, trackingUrl } from '../utils/label-params';
import { ShippingLabel } from './ShippingLabel';
import { Waybill } from './Waybill';

const FORMATS: ReadonlyArray<{ format: PrintFormat; label: string; title: string }> = [
  { format: 'label', label: 'portal.labels.format_label', title: 'portal.labels.title_label' },
  { format: 'waybill', label: 'portal.labels.format_waybill', title: 'portal.labels.title_waybill' },
];

/** The sheets' width on screen at 96 px per inch: 4 in, or 210 mm. */
const SHEET_WIDTH_PX: Record<PrintFormat, number> = { label: 4 * 96, waybill: (210 / 25.4) * 96 };

/** /administration_and_development/labels?ids=…&format=label|waybill (staff) and /portal/labels
 * (a customer's own shipments): one label or waybill per shipment, ready to print, with a toolbar
 * (Print, format) that the printout leaves out. */
export function LabelsPage({ area = 'staff' }: { area?: PrintArea }) {
  const [params] = useSearchParams();
  // The portal speaks its reader's language; the back office is in English.
  const language = useCurrentLanguage();
  const t = useMessagesIn(area === 'portal' ? language : 'en', 'portal');
  const parsed = parseIds(params.get('ids'));
  const format = parseFormat(params.get('format'));
  const title = t(FORMATS.find((f) => f.format === format)!.title);
  useDocumentTitle(title);

  if (!parsed.ok) {
    const problem =
      parsed.count === 0
        ? t('portal.labels.no_ids')
        : t('portal.labels.too_many', { count: parsed.count, max: MAX_PRINT_IDS });
    return (
      <div className="labels-page">
        <h1 className="labels-title">{title}</h1>
        <ErrorAlert message={problem} />
        <p className="labels-back">
          <Link to={area === 'portal' ? PORTAL_HOME_PATH : ADMIN_HOME_PATH}>{t('portal.labels.back')}</Link>
        </p>
      </div>
    );
  }
  return <PrintPreview area={area} ids={parsed.ids} format={format} title={title} t={t} />;
}

type PrintPreviewProps = { area: PrintArea; ids: string[]; format: PrintFormat; title: string; t: Translate };

function PrintPreview({ area, ids, format, title, t }: PrintPreviewProps) {
  const navigate = useNavigate();
  const { loading, items } = usePrintItems(area, ids);
  const { ref, scale } = useFitScale<HTMLDivElement>(SHEET_WIDTH_PX[format]);
  const errors = items.filter((item) => item.error !== undefined);
  const printable = items.length - errors.length;

  return (
    <div className="labels-page">
      <div className="labels-toolbar no-print" data-testid="labels-toolbar">
        <h1 className="labels-title">{title}</h1>
        <p className="muted labels-count">{t('portal.labels.count', { count: ids.length })}</p>
        <div className="format-switch" role="group" aria-label={t('portal.labels.format')}>
          {FORMATS.map((f) => (
            <button
              key={f.format}
              type="button"
              aria-pressed={f.format === format}
              onClick={() => navigate(labelsPath(ids, f.format, area), { replace: true })}
            >
              {t(f.label)}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => window.print()}
          disabled={loading || printable === 0}
        >
          <Printer aria-hidden="true" size={18} />
          {t('portal.labels.print')}
        </button>
      </div>

      {loading && <Spinner size="md" label={t('portal.labels.loading')} />}

      {errors.length > 0 && (
        <div className="no-print" role="alert">
          <ul className="labels-errors">
            {errors.map((item) => (
              <li key={item.id} className="alert alert-error">
                <AlertCircle aria-hidden="true" size={22} />
                <p>{item.error}</p>
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="labels-preview" ref={ref}>
        <div className="labels-sheets" style={{ zoom: scale }}>
          {items.map(({ id, shipment }) => {
            if (!shipment) return null;
            const link = trackingUrl(window.location.origin, shipment.trackingNumber);
            return format === 'label' ? (
              <ShippingLabel key={id} shipment={shipment} trackingLink={link} />
            ) : (
              <Waybill key={id} shipment={shipment} trackingLink={link} />
            );
          })}
        </div>
      </div>
    </div>
  );
}
