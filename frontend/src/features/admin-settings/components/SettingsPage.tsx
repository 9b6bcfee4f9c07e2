import { useEffect, useState } from 'react';
import { AlertCircle, RefreshCw } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';
import type { TrackingEmailSettings } from '@/gen/logistics/v1/shipment_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { getTrackingEmailSettings } from '../api/tracking-email-settings';
import { TrackingEmailSettingsForm } from './TrackingEmailSettingsForm';

const LOAD_FAILED_MESSAGE = 'Failed to load settings';

type Loaded = { attempt: number } & ({ settings: TrackingEmailSettings } | { error: string });

/** Settings: which events send tracking e-mails to whom. */
export function SettingsPage() {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getTrackingEmailSettings(controller.signal).then(
      (settings) => {
        if (!controller.signal.aborted) setLoaded({ attempt, settings });
      },
      (err: unknown) => {
        if (!controller.signal.aborted) setLoaded({ attempt, error: serverMessage(err, LOAD_FAILED_MESSAGE) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const current = loaded?.attempt === attempt ? loaded : null;
  return (
    <div className="admin-settings">
      <div className="admin-page-head">
        <h1>Settings</h1>
      </div>
      {!current ? (
        <Spinner label="Loading settings…" />
      ) : 'error' in current ? (
        <div className="alert alert-error" role="alert">
          <AlertCircle aria-hidden="true" size={22} />
          <p>{current.error}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setAttempt((n) => n + 1)}>
            <RefreshCw aria-hidden="true" size={16} />
            Try again
          </button>
        </div>
      ) : (
        <TrackingEmailSettingsForm settings={current.settings} />
      )}
    </div>
  );
}
