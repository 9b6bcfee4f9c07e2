import { AlertCircle, RefreshCw } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';
import { serverMessage } from '@/lib/rpc-errors';
import { useTrackingEmailSettings } from '../api/tracking-email-settings';
import { TrackingEmailSettingsForm } from './TrackingEmailSettingsForm';
import './settings.css';

const LOAD_FAILED_MESSAGE = 'Failed to load settings';

/** Settings: which events send tracking e-mails to whom. */
export function SettingsPage() {
  const { data: settings, error, isFetching, refetch } = useTrackingEmailSettings();
  return (
    <div className="admin-settings">
      <div className="admin-page-head">
        <h1>Settings</h1>
      </div>
      {settings ? (
        <TrackingEmailSettingsForm settings={settings} />
      ) : isFetching || !error ? (
        <Spinner label="Loading settings…" />
      ) : (
        <div className="alert alert-error" role="alert">
          <AlertCircle aria-hidden="true" size={22} />
          <p>{serverMessage(error, LOAD_FAILED_MESSAGE)}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()}>
            <RefreshCw aria-hidden="true" size={16} />
            Try again
          </button>
        </div>
      )}
    </div>
  );
}
