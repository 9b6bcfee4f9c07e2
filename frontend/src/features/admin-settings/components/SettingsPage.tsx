import { AlertCircle, RefreshCw } from 'lucide-react';
import { Spinner } from '@/components/ui/Spinner';
import { serverMessage } from '@/lib/rpc-errors';
import { useExceptionSettings } from '../api/exception-settings';
import { usePickupSettings } from '../api/pickup-settings';
import { useTrackingEmailSettings } from '../api/tracking-email-settings';
import { ExceptionSettingsForm } from './ExceptionSettingsForm';
import { PickupSettingsForm } from './PickupSettingsForm';
import { TrackingEmailSettingsForm } from './TrackingEmailSettingsForm';
import './settings.css';

const LOAD_FAILED_MESSAGE = 'Failed to load settings';

/** Settings: which events send tracking e-mails to whom, when pickups may be asked for, and when
 * a shipment needs attention. */
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
      <PickupSettings />
      <ExceptionSettingsSection />
    </div>
  );
}

/** The pickups section, loaded on its own: a failure there leaves the e-mail rules usable. */
function PickupSettings() {
  const { data: settings, error, isFetching, refetch } = usePickupSettings();
  if (settings) return <PickupSettingsForm settings={settings} />;
  if (isFetching || !error) return <Spinner label="Loading pickup settings…" />;
  return (
    <div className="alert alert-error" role="alert">
      <AlertCircle aria-hidden="true" size={22} />
      <p>{serverMessage(error, 'Failed to load the pickup settings')}</p>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()}>
        <RefreshCw aria-hidden="true" size={16} />
        Try again
      </button>
    </div>
  );
}

/** The exceptions section, loaded on its own like the pickups one. */
function ExceptionSettingsSection() {
  const { data: settings, error, isFetching, refetch } = useExceptionSettings();
  if (settings) return <ExceptionSettingsForm settings={settings} />;
  if (isFetching || !error) return <Spinner label="Loading exception settings…" />;
  return (
    <div className="alert alert-error" role="alert">
      <AlertCircle aria-hidden="true" size={22} />
      <p>{serverMessage(error, 'Failed to load the exception settings')}</p>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()}>
        <RefreshCw aria-hidden="true" size={16} />
        Try again
      </button>
    </div>
  );
}
