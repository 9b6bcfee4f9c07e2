import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LoaderCircle, Search } from 'lucide-react';
import { useMessages } from '@/lib/i18n';
import { KeepWords } from '@/components/ui/KeepWords';

type TrackSearchFormProps = {
  /** Where the form goes before the page's script runs: the /track page in this language. */
  action: string;
  /** Pre-filled value (the number in the URL). */
  initialValue: string;
  /** While true the Track button is disabled. */
  loading: boolean;
  /** Called with the raw input; the caller trims and validates it. */
  onSearch: (rawValue: string) => void;
};

/** The tracking-number search box and its Track button. */
export function TrackSearchForm({ action, initialValue, loading, onSearch }: TrackSearchFormProps) {
  const t = useMessages('track');
  const [value, setValue] = useState(initialValue);
  const input = useRef<HTMLInputElement>(null);
  // What was typed while the page's script loaded is kept, not wiped by React taking over.
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed !== initialValue) setValue(typed);
    // Once, when the script takes over the prerendered box.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(value);
  };

  return (
    // A tap before the script takes over still searches: the gateway sends /track?trackingNumber=
    // on to the number's page.
    <form className="track-form" role="search" action={action} method="get" aria-busy={loading} onSubmit={submit} noValidate>
      <label htmlFor="tracking-number" className="track-form-label">
        {t('track.search.label')}
      </label>
      <div className="track-form-row">
        <div className="track-input-wrap">
          <Search className="track-input-icon" aria-hidden="true" size={20} />
          <input
            ref={input}
            id="tracking-number"
            name="trackingNumber"
            type="text"
            className="track-input"
            placeholder={t('track.search.placeholder')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={200}
            aria-describedby="tracking-number-hint"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-lg track-submit" disabled={loading}>
          {loading && <LoaderCircle className="icon-spin" aria-hidden="true" size={20} />}
          {t('track.search.submit')}
        </button>
      </div>
      <p id="tracking-number-hint" className="track-form-hint">
        <KeepWords text={t('track.search.hint')} />
      </p>
    </form>
  );
}
