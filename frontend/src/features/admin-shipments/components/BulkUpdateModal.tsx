import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import type { BatchUpdateShipmentTrackingResponse } from '@/gen/logistics/v1/shipment_service_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Modal, ModalCancelButton } from '@/components/ui/Modal';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { STATUS_OPTIONS } from '@/utils/shipment';
import { applyFieldErrors } from '../utils/server-errors';
import { useBatchUpdateTracking, type ListFilter } from '../api/shipments';

type Values = { status: string; currentLocation: string; remarks: string };

const FIELDS: Record<string, keyof Values> = {
  status: 'status',
  current_location: 'currentLocation',
  remarks: 'remarks',
};

/** Which shipments: the rows ticked, or every one the filter matches. */
export type Selection = { kind: 'ids'; ids: string[] } | { kind: 'filter'; filter: ListFilter; count: number };

/** Update Status of many shipments with one remark; then the report of what changed and what did not. */
export function BulkUpdateModal({
  selection,
  onClose,
  onDone,
}: {
  selection: Selection;
  onClose: () => void;
  onDone: () => void;
}) {
  const form = useForm<Values>({ defaultValues: { status: '', currentLocation: '', remarks: '' } });
  const { register, formState } = form;
  const batchUpdateTracking = useBatchUpdateTracking();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  // Not public by default: a remark reaches the parties and staff only unless ticked.
  const [remarksPublic, setRemarksPublic] = useState(false);
  const [report, setReport] = useState<BatchUpdateShipmentTrackingResponse | null>(null);
  const err = (name: keyof Values) => formState.errors[name]?.message;
  const how = selection.kind === 'ids' ? selection.ids.length : selection.count;
  const what = how === 1 ? '1 shipment' : `${how.toLocaleString('en-US')} shipments`;

  const submit = form.handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const result = await batchUpdateTracking({
        ids: selection.kind === 'ids' ? selection.ids : [],
        filter: selection.kind === 'filter' ? selection.filter : undefined,
        status: Number(values.status) as ShipmentStatus,
        currentLocation: values.currentLocation.trim(),
        remarks: values.remarks.trim(),
        remarksPublic,
      });
      setReport(result);
      onDone();
      if (result.failures.length === 0) toast.success(`${result.updatedCount} shipments updated`);
      else toast.warning(`${result.updatedCount} updated, ${result.failures.length} failed`);
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to update the shipments'));
      setFormErrors(applyFieldErrors(form, error, FIELDS, 'Failed to update the shipments'));
    }
  });

  if (report) {
    return (
      <Modal title="Bulk update: report" onClose={onClose}>
        <p role="status">
          {report.updatedCount === 1 ? '1 shipment updated.' : `${report.updatedCount} shipments updated.`}{' '}
          {report.failures.length === 0 ? 'None failed.' : `${report.failures.length} failed:`}
        </p>
        {report.failures.length > 0 && (
          <ul className="bulk-failures" aria-label="Failed shipments">
            {report.failures.map((f) => (
              <li key={f.id}>
                <span className="mono">{f.trackingNumber || f.id}</span>: {f.message}
              </li>
            ))}
          </ul>
        )}
        <div className="modal-footer">
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal
      title={`Update Status of ${what}`}
      onClose={onClose}
      busy={formState.isSubmitting}
      dirty={formState.isDirty || remarksPublic}
    >
      <form className="form-stack" onSubmit={submit} noValidate>
        <FormErrors messages={formErrors} />
        <p className="muted">Each shipment gets its own history entry, and the e-mails the settings ask for.</p>
        <Field id="bulk-status" label="Status" error={err('status')}>
          <select
            className="select"
            {...fieldInputProps('bulk-status', err('status'))}
            {...register('status', { required: 'Choose a status' })}
          >
            <option value="">Choose a status</option>
            {STATUS_OPTIONS.map((option) => (
              <option key={option.key} value={String(option.value)}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="bulk-location" label="Current Location" error={err('currentLocation')}>
          <input
            className="input"
            maxLength={200}
            {...fieldInputProps('bulk-location', err('currentLocation'))}
            {...register('currentLocation', { required: 'Current location is required' })}
          />
        </Field>
        <Field id="bulk-remarks" label="Remarks" error={err('remarks')}>
          <textarea className="input" rows={3} maxLength={500} {...fieldInputProps('bulk-remarks', err('remarks'))} {...register('remarks')} />
        </Field>
        <label className="checkbox-row field-wide">
          <input type="checkbox" checked={remarksPublic} onChange={(event) => setRemarksPublic(event.target.checked)} />
          Public remark: anyone with the tracking number may read it (otherwise only the shipper, the receiver and
          staff)
        </label>
        <div className="modal-footer">
          <ModalCancelButton disabled={formState.isSubmitting} />
          <SubmitButton busy={formState.isSubmitting} busyLabel="Updating...">
            {`Update ${what}`}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
