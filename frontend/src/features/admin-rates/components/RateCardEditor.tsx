import { useState, type ChangeEvent } from 'react';
import { FormProvider, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { Download, RefreshCw, Trash2, Upload } from 'lucide-react';
import type { RateCard } from '@/gen/logistics/v1/rate_card_service_pb';
import { FormErrors } from '@/components/ui/Field';
import { ConfirmDialog } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { ADMIN_RATES_PATH } from '@/config/routes';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useDeleteRateCard, useExportRateCard, useParseRateCardCsv, useReadRateCard } from '../api/rate-cards';
import { useRateCardForm } from '../hooks/use-rate-card-form';
import { updatedText } from '../utils/card-list';
import { csvFileProblem, importViolationText, saveTextFile } from '../utils/csv-file';
import { PUBLIC_CARD_ID, cardToForm, newCustomerCardValues } from '../utils/rate-card-form';
import { CardFields } from './CardFields';
import { LanesEditor } from './LanesEditor';
import { PreviewPanel } from './PreviewPanel';
import { ServicesEditor } from './ServicesEditor';
import { ZonesEditor } from './ZonesEditor';

type Props = {
  id: string;
  /** The saved card; none: a customer's first card. */
  card: RateCard | undefined;
  customerName: string;
  publicCurrency: string;
  onSaved: (card: RateCard) => void;
  /** Loads the saved card again (after someone else's save). */
  onReload: () => void;
};

/** The edit screen: the card, its zones, services and lanes (a customer's: or a discount), the
 * preview beside it, Save, Export CSV, Import CSV and, for a customer's card, Delete. */
export function RateCardEditor({ id, card, customerName, publicCurrency, onSaved, onReload }: Props) {
  const isPublic = id === PUBLIC_CARD_ID;
  const version = card?.version ?? 0;
  const [initial] = useState(() =>
    card ? cardToForm(card, card.currency || publicCurrency) : { ...newCustomerCardValues(), currency: publicCurrency, pricing: isPublic ? ('own' as const) : ('discount' as const) },
  );
  const { form, submit, readCard, showViolations, formErrors, conflict, laneErrors } = useRateCardForm({ id, version }, initial, onSaved);
  const pricing = useWatch({ control: form.control, name: 'pricing' });
  const currency = useWatch({ control: form.control, name: 'currency' });
  const ownPrices = isPublic || pricing === 'own';
  const saving = form.formState.isSubmitting;
  const navigate = useNavigate();

  const exportCard = useExportRateCard();
  const parseCsv = useParseRateCardCsv();
  const deleteCard = useDeleteRateCard();
  const readRateCard = useReadRateCard();
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<string | null>(null);
  const [importErrors, setImportErrors] = useState<string[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const title = isPublic ? 'Public rate card' : `Rate card: ${customerName || 'customer'}`;

  const download = async () => {
    setExporting(true);
    try {
      const file = await exportCard({ id });
      saveTextFile(file.csv, file.fileName || `rate-card-${id}-v${version}.csv`);
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to export the rate card'));
    } finally {
      setExporting(false);
    }
  };

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    input.value = '';
    setImportErrors([]);
    setImported(null);
    if (!file) return;
    const problem = csvFileProblem(file);
    if (problem) {
      setImportErrors([problem]);
      return;
    }
    setImporting(true);
    try {
      const read = await parseCsv({ id, version, csv: await file.text() });
      // Loaded, not saved: the form holds it until Save.
      form.reset(cardToForm(read, read.currency || form.getValues('currency')), { keepDefaultValues: true });
      setImported(file.name);
      toast.info(`${file.name} loaded: review it, then save`);
    } catch (error) {
      const violations = fieldViolations(error);
      setImportErrors(violations.length === 0 ? [serverMessage(error, 'Failed to read the file')] : violations.map(importViolationText));
    } finally {
      setImporting(false);
    }
  };

  /** A customer's own prices begin as a copy of the public card's zones, services and lanes. */
  const startFromPublic = async () => {
    try {
      const base = cardToForm(await readRateCard({ id: PUBLIC_CARD_ID }), form.getValues('currency'));
      form.reset({ ...form.getValues(), zones: base.zones, services: base.services, lanes: base.lanes }, { keepDefaultValues: true });
      toast.info("The public card's prices are copied: change them, then save");
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to load the public rate card'));
    }
  };

  const remove = async () => {
    setDeleting(true);
    try {
      await deleteCard({ id });
      toast.success(`Rate card of ${customerName || 'the customer'} deleted`);
      navigate(ADMIN_RATES_PATH);
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to delete the rate card'));
      setDeleting(false);
      setConfirmDelete(false);
    }
  };

  return (
    <>
      <div className="admin-page-head">
        <h1 className="rate-card-title">{title}</h1>
        <div className="admin-page-actions">
          {card && (
            <button type="button" className="btn btn-outline" onClick={() => void download()} disabled={exporting}>
              <Download aria-hidden="true" size={18} />
              Export CSV
            </button>
          )}
          <input
            id="rate-card-import"
            className="visually-hidden rate-card-import-input"
            type="file"
            accept=".csv,text/csv"
            disabled={importing}
            onChange={(event) => void importFile(event)}
          />
          <label htmlFor="rate-card-import" className={`btn btn-outline rate-card-import-label${importing ? ' is-busy' : ''}`}>
            <Upload aria-hidden="true" size={18} />
            Import CSV
          </label>
          {card && !isPublic && (
            <button type="button" className="btn btn-danger" onClick={() => setConfirmDelete(true)}>
              <Trash2 aria-hidden="true" size={18} />
              Delete
            </button>
          )}
        </div>
      </div>
      <p className="rate-card-meta muted" data-testid="rate-card-meta">
        {card ? `Version ${card.version} · updated by ${updatedText(card)}` : 'Not saved yet: the customer is quoted from the public card until you save.'}
      </p>

      {conflict && (
        <div className="alert alert-error rate-card-conflict" role="alert">
          <p>{conflict}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={onReload}>
            <RefreshCw aria-hidden="true" size={16} />
            Reload
          </button>
        </div>
      )}
      {importErrors.length > 0 && (
        <div className="alert alert-error rate-card-import-errors" role="alert">
          <div>
            <p>The file was not loaded; nothing changed:</p>
            <ul>
              {importErrors.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {imported && (
        <p className="alert alert-info rate-card-imported" role="status">
          Loaded from {imported}. Nothing is saved yet: review it, then press Save.
        </p>
      )}

      <div className="rate-card-layout">
        <FormProvider {...form}>
          <form onSubmit={submit} noValidate aria-busy={saving} className="rate-card-form" aria-label={title}>
            <FormErrors messages={formErrors} />
            <CardFields isPublic={isPublic} currency={currency || publicCurrency} />
            {ownPrices && (
              <>
                <ZonesEditor />
                <ServicesEditor />
                <LanesEditor laneErrors={laneErrors} onStartFromPublic={isPublic ? undefined : () => void startFromPublic()} />
              </>
            )}
            <div className="rate-card-save">
              <SubmitButton busy={saving} busyLabel="Saving...">
                Save
              </SubmitButton>
            </div>
          </form>
        </FormProvider>
        <PreviewPanel readCard={readCard} showCardViolations={showViolations} />
      </div>

      {confirmDelete && (
        <ConfirmDialog
          title="Delete this rate card?"
          confirmLabel="Delete"
          busy={deleting}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => void remove()}
        >
          <p>{customerName || 'The customer'} is quoted from the public card again. The audit log keeps its versions.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
