import { toast } from '@/lib/toast';
import type { WebhookWords } from './words';

/** A secret just made: shown once, with a way to copy it. */
export type ShownSecret = { url: string; secret: string };

export function SecretPanel({ shown, words, onDismiss }: { shown: ShownSecret; words: WebhookWords; onDismiss: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      toast.success(words.copied);
    } catch {
      toast.error(words.copyFailed);
    }
  };
  return (
    <section className="card webhook-secret" aria-labelledby="webhook-secret-title" role="status">
      <h2 id="webhook-secret-title">{words.secretTitle}</h2>
      <p>
        {words.secretFor(
          <span className="mono" dir="ltr">
            {shown.url}
          </span>,
        )}
      </p>
      <code className="webhook-secret-value" dir="ltr" data-testid="webhook-secret">
        {shown.secret}
      </code>
      <div className="admin-page-actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()}>
          {words.copySecret}
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={onDismiss}>
          {words.done}
        </button>
      </div>
    </section>
  );
}
