import './address-book.css';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Download, Pencil, Plus, Trash2, Upload } from 'lucide-react';
import { AddressBookEntryKind, type AddressBookEntry } from '@/gen/logistics/v1/customer_pb';
import { Field, FormErrors } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ConfirmDialog, Modal, ModalCancelButton } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { SubmitButton } from '@/components/ui/SubmitButton';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useMessages, type Translate } from '@/lib/i18n';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useAddressBook, useCreateEntry, useDeleteEntry, useImportEntries, useUpdateEntry } from '../api/address-book';
import { ADDRESS_BOOK_CSV_HEADER, addressBookTemplateUrl, importErrors } from '../utils/address-book';

const KINDS = [
  { kind: AddressBookEntryKind.UNSPECIFIED, label: 'portal.address_book.kind_all' },
  { kind: AddressBookEntryKind.SENDER, label: 'portal.address_book.kind_senders' },
  { kind: AddressBookEntryKind.RECEIVER, label: 'portal.address_book.kind_receivers' },
] as const;

const kindLabel = (kind: AddressBookEntryKind) =>
  kind === AddressBookEntryKind.SENDER ? 'portal.address_book.sender' : 'portal.address_book.receiver';

/** /portal/address-book: the customer's senders and receivers; its admins change them. */
export function AddressBookPage({ canEdit }: { canEdit: boolean }) {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.address_book.title'));
  const [kind, setKind] = useState<AddressBookEntryKind>(AddressBookEntryKind.UNSPECIFIED);
  const [query, setQuery] = useState('');
  // The tokens of the pages before the one shown, for "Previous".
  const [pages, setPages] = useState<string[]>(['']);
  const pageToken = pages[pages.length - 1];
  const list = useAddressBook({ kind, query, pageToken });
  const [editing, setEditing] = useState<AddressBookEntry | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AddressBookEntry | null>(null);
  const [importing, setImporting] = useState(false);

  return (
    <div className="portal-page">
      <div className="portal-page-head">
        <h1>{t('portal.address_book.title')}</h1>
        {canEdit && (
          <div className="address-book-actions">
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" size={16} />
              {t('portal.address_book.add')}
            </button>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setImporting(true)}>
              <Upload aria-hidden="true" size={16} />
              {t('portal.address_book.import')}
            </button>
          </div>
        )}
      </div>
      {!canEdit && <p className="muted">{t('portal.address_book.read_only')}</p>}
      <form className="card address-book-filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field id="book-filter-kind" label={t('portal.address_book.kind')}>
          <select
            id="book-filter-kind"
            className="select"
            value={kind}
            onChange={(e) => {
              setKind(Number(e.target.value) as AddressBookEntryKind);
              setPages(['']);
            }}
          >
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {t(k.label)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="book-filter-query" label={t('portal.address_book.search')}>
          <input
            id="book-filter-query"
            className="input"
            type="search"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setPages(['']);
            }}
          />
        </Field>
      </form>
      {list.isPending ? (
        <Spinner size="md" label={t('portal.address_book.loading')} />
      ) : list.error ? (
        <ErrorAlert message={serverMessage(list.error, t('portal.address_book.load_failed'))} />
      ) : list.data.entries.length === 0 ? (
        <p className="muted">{t('portal.address_book.empty')}</p>
      ) : (
        <ul className="address-book-list" aria-busy={list.isPlaceholderData}>
          {list.data.entries.map((entry) => (
            <li key={entry.id} className="card address-book-entry">
              <div>
                <p className="address-book-name">
                  <bdi>{entry.name}</bdi> <span className="status-pill is-off">{t(kindLabel(entry.kind))}</span>
                </p>
                <p>
                  <bdi>{entry.address}</bdi>
                </p>
                {(entry.phone || entry.email) && (
                  <p className="muted">
                    <bdi dir="ltr">{[entry.phone, entry.email].filter(Boolean).join(' · ')}</bdi>
                  </p>
                )}
              </div>
              {canEdit && (
                <div className="address-book-entry-actions">
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    aria-label={t('portal.address_book.edit_named', { name: entry.name })}
                    onClick={() => setEditing(entry)}
                  >
                    <Pencil aria-hidden="true" size={16} />
                    {t('portal.address_book.edit')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    aria-label={t('portal.address_book.delete_named', { name: entry.name })}
                    onClick={() => setDeleting(entry)}
                  >
                    <Trash2 aria-hidden="true" size={16} />
                    {t('portal.address_book.delete')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.data && (pages.length > 1 || list.data.nextPageToken) && (
        <nav className="address-book-pages" aria-label={t('portal.address_book.pages')}>
          <button type="button" className="btn btn-outline btn-sm" disabled={pages.length <= 1} onClick={() => setPages(pages.slice(0, -1))}>
            {t('portal.address_book.previous')}
          </button>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={!list.data.nextPageToken}
            onClick={() => setPages([...pages, list.data.nextPageToken])}
          >
            {t('portal.address_book.next')}
          </button>
        </nav>
      )}
      {editing && <EntryDialog entry={editing === 'new' ? null : editing} onClose={() => setEditing(null)} t={t} />}
      {deleting && <DeleteDialog entry={deleting} onClose={() => setDeleting(null)} t={t} />}
      {importing && <ImportDialog onClose={() => setImporting(false)} t={t} />}
    </div>
  );
}

type EntryValues = { kind: AddressBookEntryKind; name: string; address: string; phone: string; email: string };
const FIELDS = ['name', 'address', 'phone', 'email'] as const;

function EntryDialog({ entry, onClose, t }: { entry: AddressBookEntry | null; onClose: () => void; t: Translate }) {
  const create = useCreateEntry();
  const update = useUpdateEntry();
  const [values, setValues] = useState<EntryValues>({
    kind: entry?.kind ?? AddressBookEntryKind.RECEIVER,
    name: entry?.name ?? '',
    address: entry?.address ?? '',
    phone: entry?.phone ?? '',
    email: entry?.email ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<keyof EntryValues, string>>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const busy = create.isPending || update.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setGeneral([]);
    try {
      if (entry) {
        await update.mutateAsync({ entry: { ...values, id: entry.id }, updateMask: { paths: ['kind', ...FIELDS] } });
      } else {
        await create.mutateAsync({ entry: values });
      }
      toast.success(t('portal.address_book.saved'));
      onClose();
    } catch (error) {
      const violations = fieldViolations(error);
      if (violations.length === 0) setGeneral([serverMessage(error, t('portal.address_book.save_failed'))]);
      const next: Partial<Record<keyof EntryValues, string>> = {};
      const rest: string[] = [];
      for (const { field, description } of violations) {
        const name = field.replace(/^entry\./, '') as keyof EntryValues;
        if (name in values) next[name] = description;
        else rest.push(description);
      }
      setErrors(next);
      setGeneral((g) => [...g, ...rest]);
    }
  };

  const input = (name: (typeof FIELDS)[number], label: string, type = 'text') => {
    const id = `entry-${name}`;
    return (
      <Field id={id} label={label} error={errors[name]}>
        <input
          className="input"
          type={type}
          // Latin addresses keep their order in the Arabic page.
          dir={type === 'text' ? 'auto' : undefined}
          required={name === 'name' || name === 'address'}
          value={values[name]}
          onChange={(e) => setValues({ ...values, [name]: e.target.value })}
          {...fieldInputProps(id, errors[name])}
        />
      </Field>
    );
  };

  return (
    <Modal title={entry ? t('portal.address_book.edit_title') : t('portal.address_book.add_title')} onClose={onClose} busy={busy}>
      <form onSubmit={(e) => void submit(e)} className="address-book-form">
        <FormErrors messages={general} />
        <Field id="entry-kind" label={t('portal.address_book.kind')} error={errors.kind}>
          <select
            className="select"
            value={values.kind}
            onChange={(e) => setValues({ ...values, kind: Number(e.target.value) as AddressBookEntryKind })}
            {...fieldInputProps('entry-kind', errors.kind)}
          >
            <option value={AddressBookEntryKind.SENDER}>{t('portal.address_book.sender')}</option>
            <option value={AddressBookEntryKind.RECEIVER}>{t('portal.address_book.receiver')}</option>
          </select>
        </Field>
        {input('name', t('portal.book.name'))}
        {input('address', t('portal.book.address'))}
        {input('phone', t('portal.book.phone'), 'tel')}
        {input('email', t('portal.book.email'), 'email')}
        <div className="modal-footer">
          <ModalCancelButton disabled={busy}>{t('portal.address_book.cancel')}</ModalCancelButton>
          <SubmitButton busy={busy} busyLabel={t('portal.address_book.saving')}>
            {t('portal.address_book.save')}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}

function DeleteDialog({ entry, onClose, t }: { entry: AddressBookEntry; onClose: () => void; t: Translate }) {
  const remove = useDeleteEntry();
  const confirm = async () => {
    try {
      await remove.mutateAsync({ id: entry.id });
      toast.success(t('portal.address_book.deleted'));
      onClose();
    } catch (error) {
      toast.error(serverMessage(error, t('portal.address_book.delete_failed')));
    }
  };
  return (
    <ConfirmDialog
      title={t('portal.address_book.delete_title')}
      confirmLabel={t('portal.address_book.delete')}
      cancelLabel={t('portal.address_book.cancel')}
      onConfirm={() => void confirm()}
      onCancel={onClose}
      busy={remove.isPending}
    >
      <p>{t('portal.address_book.delete_question', { name: entry.name })}</p>
    </ConfirmDialog>
  );
}

function ImportDialog({ onClose, t }: { onClose: () => void; t: Translate }) {
  const importEntries = useImportEntries();
  const [csv, setCsv] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    setErrors([]);
    const file = event.target.files?.[0];
    setCsv(file ? await file.text() : null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (csv === null) return;
    setErrors([]);
    try {
      const result = await importEntries.mutateAsync({ csv });
      toast.success(t('portal.address_book.imported', { count: result.importedCount }));
      onClose();
    } catch (error) {
      const found = importErrors(fieldViolations(error));
      setErrors(
        found.length === 0
          ? [serverMessage(error, t('portal.address_book.import_failed'))]
          : found.map((e) =>
              e.row === undefined
                ? e.message
                : e.column
                  ? t('portal.address_book.row_column_error', { row: e.row, column: e.column, message: e.message })
                  : t('portal.address_book.row_error', { row: e.row, message: e.message }),
            ),
      );
    }
  };

  return (
    <Modal title={t('portal.address_book.import_title')} onClose={onClose} busy={importEntries.isPending}>
      <form onSubmit={(e) => void submit(e)} className="address-book-form">
        <p>{t('portal.address_book.import_help')}</p>
        <p>
          <code dir="ltr">{ADDRESS_BOOK_CSV_HEADER}</code>
        </p>
        <p>
          <a href={addressBookTemplateUrl()} download="address-book.csv">
            <Download aria-hidden="true" size={16} /> {t('portal.address_book.template')}
          </a>
        </p>
        <Field id="import-file" label={t('portal.address_book.file')}>
          <input id="import-file" className="input" type="file" accept=".csv,text/csv" required onChange={(e) => void pick(e)} />
        </Field>
        {errors.length > 0 && (
          <div role="alert" className="address-book-import-errors">
            <p>{t('portal.address_book.import_nothing')}</p>
            <ul>
              {errors.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="modal-footer">
          <ModalCancelButton disabled={importEntries.isPending}>{t('portal.address_book.cancel')}</ModalCancelButton>
          <SubmitButton busy={importEntries.isPending} busyLabel={t('portal.address_book.importing')}>
            {t('portal.address_book.import')}
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
