import { useEffect, useRef } from 'react';
import { Check, Copy } from 'lucide-react';
import { toast } from '@/lib/toast';
import type { NewSecret } from '../hooks/use-api-key-form';
import type { ApiKeyWords } from './words';

/** A key's secret just made: shown this once, with Copy and Done. */
export function SecretPanel({ shown, words, onDone }: { shown: NewSecret; words: ApiKeyWords; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus comes here, so a screen reader reads the warning before anything else.
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      toast.success(words.copied);
    } catch {
      toast.error(words.copyFailed);
    }
  };
  return (
    <section className="card api-key-secret" aria-labelledby="api-key-secret-title" data-testid="api-key-secret-panel">
      <h2 id="api-key-secret-title" ref={heading} tabIndex={-1}>
        {words.secretTitle}
      </h2>
      <p>
        <bdi>{words.secretFor(shown.name)}</bdi>
      </p>
      <p className="api-key-secret-warning" role="alert">
        {words.secretWarning}
      </p>
      <code className="api-key-secret-value" dir="ltr" data-testid="api-key-secret">
        {shown.secret}
      </code>
      <div className="api-key-secret-actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()}>
          <Copy aria-hidden="true" size={16} />
          {words.copy}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={onDone}>
          <Check aria-hidden="true" size={16} />
          {words.done}
        </button>
      </div>
    </section>
  );
}
