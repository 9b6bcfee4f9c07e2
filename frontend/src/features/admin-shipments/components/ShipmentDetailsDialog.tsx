import { useState, type ReactNode } from 'react';
import { FileText, PackageCheck, Send, Tag } from 'lucide-react';
import { ShipmentStatus, type Shipment } from '@/gen/logistics/v1/shipment_pb';
import { HistoryTimeline } from '@/components/shipment/HistoryTimeline';
import { PackagesTable } from '@/components/shipment/PackagesTable';
import { PartyCard } from '@/components/shipment/PartyCard';
import { ShipmentModeIcon } from '@/components/shipment/ShipmentModeIcon';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import { Ltr } from '@/components/ui/Bidi';
import { IconText } from '@/components/ui/IconText';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { labelsPath } from '@/config/routes';
import { EMPTY_VALUE } from '@/utils/format';
import { statusKey } from '@/utils/shipment';
import { useShipment } from '../api/shipments';
import { shipmentSummary } from '../utils/shipment-fields';
import { ProofOfDeliverySection } from './ProofOfDeliverySection';
import { CustomerName } from './CustomerName';
import { RecordProofModal } from './RecordProofModal';
import { ShipmentActivity } from './ShipmentActivity';
import { ShipmentNotes } from './ShipmentNotes';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="detail-row">
      <dt>{term}</dt>
      <dd>{children === '' || children === undefined || children === null ? EMPTY_VALUE : children}</dd>
    </div>
  );
}

type Tab = 'details' | 'activity';

/** Every field of a shipment and its history, fetched again on open so it is current; a
 * delivered shipment's proof of delivery (recorded or replaced here by whoever may record
 * deliveries); staff's internal notes (added here by whoever may update tracking); and, for
 * those who read the audit log, an Activity tab of who changed it. */
export function ShipmentDetailsDialog({
  shipment: initial,
  onClose,
  showActivity = false,
  showLabels = false,
  canRecordProof = false,
  canReadCustomers = false,
  canAddNotes = false,
}: {
  shipment: Shipment;
  onClose: () => void;
  showActivity?: boolean;
  showLabels?: boolean;
  canRecordProof?: boolean;
  /** The customer row shows the customer's name (else its id). */
  canReadCustomers?: boolean;
  /** Add internal notes (shipments.track). */
  canAddNotes?: boolean;
}) {
  const fresh = useShipment(initial.id);
  const [tab, setTab] = useState<Tab>('details');
  const [recording, setRecording] = useState(false);
  // A note being written: closing asks first.
  const [noteDraft, setNoteDraft] = useState(false);
  // The list's copy until the server's arrives, and again if that fails.
  const s = fresh.data ?? initial;
  const refreshing = fresh.isFetching;
  const details = (
    <div className="shipment-details" aria-busy={refreshing}>
      <div className="details-head">
        <StatusBadge statusKey={statusKey(s.status)} />
        {refreshing && <Spinner size="sm" label="Refreshing…" />}
        {showLabels && (
          <div className="details-print">
            <a className="btn btn-outline btn-sm" href={labelsPath([s.id], 'label')} target="_blank" rel="noopener">
              <Tag aria-hidden="true" size={16} />
              Label
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            <a className="btn btn-outline btn-sm" href={labelsPath([s.id], 'waybill')} target="_blank" rel="noopener">
              <FileText aria-hidden="true" size={16} />
              Waybill
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </div>
        )}
      </div>

      <section aria-labelledby="view-summary" className="details-section">
        <h3 id="view-summary">Summary</h3>
        <dl className="details-list details-grid">
          {shipmentSummary(s).map((row) => (
            <Detail key={row.field} term={row.term}>
              {row.customerId ? (
                <CustomerName id={row.customerId} canRead={canReadCustomers} />
              ) : row.mono ? (
                <Ltr className="mono">{row.value}</Ltr>
              ) : row.icon ? (
                <IconText icon={<ShipmentModeIcon kind={row.icon} />} text={row.value} />
              ) : (
                row.value && <bdi>{row.value}</bdi>
              )}
            </Detail>
          ))}
        </dl>
      </section>

      {s.status === ShipmentStatus.DELIVERED && (
        <ProofOfDeliverySection shipment={s} onRecord={canRecordProof ? () => setRecording(true) : undefined} />
      )}

      <div className="details-parties">
        <PartyCard title="Shipper" party={s.shipper} icon={<Send aria-hidden="true" size={20} />} />
        <PartyCard title="Receiver" party={s.receiver} icon={<PackageCheck aria-hidden="true" size={20} />} />
      </div>

      <section aria-labelledby="view-packages" className="details-section">
        <h3 id="view-packages">Packages</h3>
        <PackagesTable packages={s.packages} totalWeightKg={s.totalActualWeightKg} />
      </section>

      <section aria-labelledby="view-history" className="details-section">
        <h3 id="view-history">Shipment History</h3>
        <HistoryTimeline history={s.history} dayHeading="h4" />
      </section>

      <ShipmentNotes shipmentId={s.id} canAdd={canAddNotes} onDraftChange={setNoteDraft} />
    </div>
  );
  // The Record dialog is the View dialog's sibling, not its child: Escape in it must close it alone.
  return (
    <>
      <Modal title={`Shipment ${s.trackingNumber}`} onClose={onClose} size="lg" dirty={noteDraft}>
        {showActivity ? (
          <>
            <DialogTabs tab={tab} onChange={setTab} />
            <div role="tabpanel" id={`shipment-tab-${tab}`} aria-labelledby={`shipment-tab-${tab}-button`}>
              {tab === 'details' ? details : <ShipmentActivity shipmentId={s.id} />}
            </div>
          </>
        ) : (
          details
        )}
      </Modal>
      {recording && (
        <RecordProofModal
          shipment={s}
          onClose={() => setRecording(false)}
          onRecorded={() => setRecording(false)}
        />
      )}
    </>
  );
}

const TABS: ReadonlyArray<{ tab: Tab; label: string }> = [
  { tab: 'details', label: 'Details' },
  { tab: 'activity', label: 'Activity' },
];

/** Details | Activity, as tabs: arrow keys move between them. */
function DialogTabs({ tab, onChange }: { tab: Tab; onChange: (tab: Tab) => void }) {
  const move = (step: number) => {
    const index = (TABS.findIndex((t) => t.tab === tab) + step + TABS.length) % TABS.length;
    onChange(TABS[index].tab);
    document.getElementById(`shipment-tab-${TABS[index].tab}-button`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Shipment" className="dialog-tabs">
      {TABS.map(({ tab: value, label }) => (
        <button
          key={value}
          type="button"
          role="tab"
          id={`shipment-tab-${value}-button`}
          aria-selected={tab === value}
          aria-controls={`shipment-tab-${value}`}
          tabIndex={tab === value ? 0 : -1}
          className={`dialog-tab${tab === value ? ' is-active' : ''}`}
          onClick={() => onChange(value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') move(1);
            if (event.key === 'ArrowLeft') move(-1);
          }}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
