import { AddressBookEntryKind, type AddressBookEntry } from '@/gen/logistics/v1/customer_pb';
import { Field } from '@/components/ui/Field';
import { useMessages } from '@/lib/i18n';
import { useAddressBookChoices } from '../api/address-book';

type AddressPickerProps = { id: string; kind: AddressBookEntryKind; onPick: (entry: AddressBookEntry) => void };

/** "Choose from address book": fills a party's fields from one entry (they stay editable). */
export function AddressPicker({ id, kind, onPick }: AddressPickerProps) {
  const t = useMessages('portal');
  const choices = useAddressBookChoices(kind);
  const entries = choices.data?.entries ?? [];
  if (entries.length === 0) return null;
  return (
    <Field id={id} label={t('portal.book.choose')} className="field-wide">
      <select
        id={id}
        className="select"
        defaultValue=""
        onChange={(e) => {
          const entry = entries.find((x) => x.id === e.target.value);
          if (entry) onPick(entry);
        }}
      >
        <option value="">{t('portal.book.choose_none')}</option>
        {entries.map((entry) => (
          <option key={entry.id} value={entry.id}>
            {entry.name} — {entry.address}
          </option>
        ))}
      </select>
    </Field>
  );
}
