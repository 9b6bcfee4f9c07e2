import { Link } from 'react-router-dom';
import { AlertTriangle } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';
import { ADMIN_EXCEPTIONS_PATH, exceptionsOfKindPath } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { useExceptionCounts } from '../api/exceptions';
import { EXCEPTION_KINDS, countText } from '../utils/exceptions';
import './exceptions.css';

/** The dashboard's "Needs attention": the open exceptions per kind, each a link into the queue
 * filtered by that kind. */
export function NeedsAttention() {
  const { data, error } = useExceptionCounts();
  return (
    <section className="needs-attention" aria-labelledby="attention-heading">
      <div className="needs-attention-head">
        <h2 id="attention-heading">
          <AlertTriangle aria-hidden="true" size={18} />
          Needs attention
        </h2>
        <Link to={ADMIN_EXCEPTIONS_PATH}>All exceptions</Link>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {serverMessage(error, 'Failed to load the exceptions')}
        </p>
      ) : !data ? (
        <Spinner size="sm" label="Loading the exceptions…" />
      ) : (
        <ul className="attention-cards">
          {EXCEPTION_KINDS.map((kind) => {
            const count = data.counts.find((c) => c.kind === kind.value)?.count ?? 0n;
            return (
              <li key={kind.key}>
                <Link
                  className={`attention-card tone-${count > 0n ? kind.tone : 'none'}`}
                  to={exceptionsOfKindPath(kind.key)}
                  data-kind={kind.key}
                >
                  <span className="attention-value">{countText(count)}</span>
                  <span className="attention-label">{kind.label}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
