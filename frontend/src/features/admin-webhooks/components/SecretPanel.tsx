import { toast } from '@/lib/toast';

/** A secret just made: shown once, with a way to copy it. */
export type ShownSecret = { url: string; secret: string };

export function SecretPanel({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      toast.success('Secret copied');
    } catch {
      toast.error('Copy failed; select the secret and copy it by hand');
    }
  };
  return (
    <section className="card webhook-secret" aria-labelledby="webhook-secret-title" role="status">
      <h2 id="webhook-secret-title">Signing secret</h2>
      <p>
        For <span className="mono">{shown.url}</span>. It is shown this once: store it in the receiving system now.
      </p>
      <code className="webhook-secret-value" data-testid="webhook-secret">
        {shown.secret}
      </code>
      <div className="admin-page-actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={onDismiss}>
          Done
        </button>
      </div>
    </section>
  );
}
